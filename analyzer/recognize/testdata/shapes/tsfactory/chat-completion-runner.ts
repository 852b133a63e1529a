import { AbstractRunner } from "./abstract-runner";

export class ChatCompletionRunner extends AbstractRunner<any> {
  static runTools(client: any, params: any, options?: any): ChatCompletionRunner {
    const runner = new ChatCompletionRunner();
    const opts = { ...options, headers: { ...options?.headers, "X-Stainless-Helper-Method": "runTools" } };
    runner._run(() => runner._runTools(client, params, opts));
    return runner;
  }
}
