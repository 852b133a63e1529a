// A session loop whose bound records the run's state on the way out before a bare return
// (@google/gemini-cli-core@0.61.0 dist/src/agent/legacy-agent-session.js:118-128: if
// (maxTurns >= 0 && turnCount > maxTurns) { this._finishStream('max_turns', { code:
// 'MAX_TURNS_EXCEEDED' }); return; }): what happens at the bound is that stop reason.
import OpenAI from "openai";

export class Session {
  status = "idle";
  constructor(private client: OpenAI, private tools: Record<string, (a: string) => Promise<string>>, private maxTurns = 20) {}

  private _finishStream(reason: string, data?: Record<string, unknown>): void {
    this.status = reason;
  }

  async send(task: string): Promise<void> {
    const messages: any[] = [{ role: "user", content: task }];
    let turnCount = 0;
    while (true) {
      turnCount++;
      if (this.maxTurns >= 0 && turnCount > this.maxTurns) {
        this._finishStream("max_turns", { code: "MAX_TURNS_EXCEEDED", maxTurns: this.maxTurns });
        return;
      }
      const reply = await this.client.chat.completions.create({ model: "m", messages });
      const msg = reply.choices[0].message;
      if (!msg.tool_calls?.length) {
        this._finishStream("completed");
        return;
      }
      for (const call of msg.tool_calls) {
        const out = await this.tools[call.function.name](call.function.arguments);
        messages.push({ role: "tool", tool_call_id: call.id, content: out });
      }
    }
  }
}
