import OpenAI from "openai";

const Kind = { Error: "error", Invalid: "invalid", Text: "text" };

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
      // a status handed over in an arm of a switch, whose statements are no block
      // (@google/gemini-cli-core@0.61.0 dist/src/agent/legacy-agent-session.js:149-154:
      // case GeminiEventType.Error: case GeminiEventType.InvalidStream: …
      // this._finishStream('failed'); return;)
      switch (msg.kind) {
        case Kind.Error:
        case Kind.Invalid:
          this._finishStream("failed");
          return;
      }
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
