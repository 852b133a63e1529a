import OpenAI from "openai";

export class StreamRun {
  state = "running";
  constructor(private client: OpenAI, private tools: Record<string, (a: string) => Promise<string>>) {}

  private _finishStream(state: string): void {
    this.state = state;
  }

  async run(task: string): Promise<void> {
    const messages: any[] = [{ role: "user", content: task }];
    for (let turn = 0; turn < 10; turn++) {
      let reply;
      try {
        reply = await this.client.chat.completions.create({ model: "m", messages });
      } catch (e) {
        this._finishStream("failed");
        return;
      }
      const msg = reply.choices[0].message;
      if (!msg.tool_calls) {
        this._finishStream("completed");
        return;
      }
      for (const call of msg.tool_calls) {
        const out = await this.tools[call.function.name](call.function.arguments);
        messages.push({ role: "tool", content: out });
      }
    }
  }
}
