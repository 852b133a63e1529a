import OpenAI from "openai";

const DEFAULT_MAX_TURNS = 12;

interface RunConfig { maxTurns?: number }
interface Definition { runConfig: RunConfig }

export class Executor {
  constructor(private client: OpenAI, private definition: Definition, private tools: Record<string, (a: string) => Promise<string>>) {}

  get maxTurns(): number {
    return this.definition.runConfig.maxTurns ?? DEFAULT_MAX_TURNS;
  }

  async run(task: string): Promise<string | undefined> {
    const messages: any[] = [{ role: "user", content: task }];
    for (let turn = 0; turn < this.maxTurns; turn++) {
      const reply = await this.client.chat.completions.create({ model: "m", messages });
      const msg = reply.choices[0].message;
      if (!msg.tool_calls) return msg.content ?? undefined;
      for (const call of msg.tool_calls) {
        const out = await this.tools[call.function.name](call.function.arguments);
        messages.push({ role: "tool", content: out });
      }
    }
    return undefined;
  }
}

export class Executor2 {
  constructor(private client: OpenAI, private config: RunConfig, private tools: Record<string, (a: string) => Promise<string>>) {}

  async run(task: string): Promise<string | undefined> {
    const messages: any[] = [{ role: "user", content: task }];
    const max = this.config.maxTurns ?? 30;
    for (let turn = 0; turn < max; turn++) {
      const reply = await this.client.chat.completions.create({ model: "m", messages });
      const msg = reply.choices[0].message;
      if (!msg.tool_calls) return msg.content ?? undefined;
      for (const call of msg.tool_calls) {
        const out = await this.tools[call.function.name](call.function.arguments);
        messages.push({ role: "tool", content: out });
      }
    }
    return undefined;
  }
}
