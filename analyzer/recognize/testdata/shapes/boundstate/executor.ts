// A subagent loop whose bound is checked in a helper that returns a member of an enumeration
// naming the limit, or null (@google/gemini-cli-core@0.61.0 dist/src/agents/local-executor.js:
// 442-447, 1045-1050: const reason = this.checkTermination(turnCounter, maxTurns); if (reason)
// { terminateReason = reason; break; }): the stop reason is that member.
import OpenAI from "openai";

export const TerminateMode = { GOAL: "GOAL", MAX_TURNS: "MAX_TURNS", ERROR: "ERROR" };

export class Executor {
  constructor(private client: OpenAI, private tools: Record<string, (a: string) => Promise<string>>) {}

  private checkTermination(turnCounter: number, maxTurns: number): string | null {
    if (turnCounter >= maxTurns) {
      return TerminateMode.MAX_TURNS;
    }
    return null;
  }

  async run(task: string, maxTurns = 30) {
    const messages: any[] = [{ role: "user", content: task }];
    let turnCounter = 0;
    let terminateReason = TerminateMode.ERROR;
    while (true) {
      const reason = this.checkTermination(turnCounter, maxTurns);
      if (reason) {
        terminateReason = reason;
        break;
      }
      turnCounter++;
      const reply = await this.client.chat.completions.create({ model: "m", messages });
      const msg = reply.choices[0].message;
      if (!msg.tool_calls?.length) {
        terminateReason = TerminateMode.GOAL;
        break;
      }
      for (const call of msg.tool_calls) {
        const out = await this.tools[call.function.name](call.function.arguments);
        messages.push({ role: "tool", tool_call_id: call.id, content: out });
      }
    }
    return { terminate_reason: terminateReason, turn_count: turnCounter };
  }
}
