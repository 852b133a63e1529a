import { EventStream } from "./stream";

export class ToolLoop extends EventStream {
  messages: any[] = [];
  signal?: AbortSignal;

  static runTools(client: any, params: any): ToolLoop {
    const runner = new ToolLoop();
    runner._run(() => runner._runTools(client, params));
    return runner;
  }

  async _runTools(client: any, params: any): Promise<void> {
    const maxRounds = params.maxRounds ?? 10;
    for (let i = 0; i < maxRounds; i++) {
      const reply = await client.chat.completions.create({ model: params.model, messages: this.messages, tools: params.tools });
      const calls = reply.choices[0].message.tool_calls;
      if (!calls || calls.length === 0) {
        return;
      }
      const results = await Promise.allSettled(calls.map((c: any) => params.tools[c.function.name].run(c.function.arguments)));
      for (const r of results) {
        this.messages.push({ role: "tool", content: String(r) });
      }
      if (this.signal?.aborted) {
        throw new Error("aborted");
      }
    }
  }
}
