import { BaseAgent, type Model, type Reply } from "./base";
import runTool, { MaxTurnsError, type Tool } from "./tools";

export const DEFAULT_MAX_TURNS = 8;

export class Agent extends BaseAgent {
  maxTurns = DEFAULT_MAX_TURNS;
  #tools: Record<string, Tool>;

  constructor(model: Model, tools: Record<string, Tool>) {
    super(model);
    this.#tools = tools;
  }

  static create(model: Model, tools: Record<string, Tool>): Agent {
    return new Agent(model, tools);
  }

  async run(input: string, signal?: AbortSignal): Promise<Reply> {
    const messages: unknown[] = [{ role: "user", content: input }];
    for (let turn = 0; turn < this.maxTurns; turn++) {
      if (signal?.aborted) throw new Error("aborted");
      const reply = await this.step(messages);
      messages.push(reply);
      if (!reply.toolCalls || reply.toolCalls.length === 0) return reply;
      for (const call of reply.toolCalls) {
        messages.push(await runTool(this.#tools, call.name, call.args));
      }
    }
    throw new MaxTurnsError(this.maxTurns);
  }

  async *stream(input: string): AsyncGenerator<Reply> {
    const messages: unknown[] = [{ role: "user", content: input }];
    while (true) {
      const reply = await this.step(messages);
      yield reply;
      if (!reply.toolCalls?.length) return;
      for (const call of reply.toolCalls) {
        messages.push(await runTool(this.#tools, call.name, call.args));
      }
    }
  }
}

export async function run(model: Model, tools: Record<string, Tool>, input: string): Promise<Reply> {
  return Agent.create(model, tools).run(input);
}

export const runOnce = async (model: Model, tools: Record<string, Tool>, input: string): Promise<Reply> =>
  Agent.create(model, tools).run(input);
