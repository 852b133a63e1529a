import { AbstractRunner } from "./abstract-runner";

export class StreamingRunner extends AbstractRunner<any> {
  static runTools(client: any, params: any, options?: any): StreamingRunner {
    const runner = new StreamingRunner();
    runner._run(() => runner._runTools(client, params, options));
    return runner;
  }

  protected override async _createChatCompletion(client: any, params: any, opts?: any): Promise<any> {
    const stream = await client.chat.completions.create({ ...params, stream: true }, opts);
    let last: any;
    for await (const chunk of stream) {
      last = chunk;
    }
    return last;
  }
}
