import { randomUUID } from 'node:crypto';
import { DEFAULT_MAX_TURNS } from './defaults';
import { MaxTurnsExceededError } from './errors.js';

export interface RunOptions {
  maxTurns?: number;
  signal?: AbortSignal;
}

type Tool = { name: string; invoke(args: unknown): Promise<string> };

export class Runner<TContext = unknown> {
  private tools: Tool[] = [];
  constructor(private model: { respond(input: unknown[], signal?: AbortSignal): Promise<any>; stream(input: unknown[]): AsyncIterable<any> }) {}

  async run(input: string, options: RunOptions = {}): Promise<string> {
    const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
    const signal = options.signal;
    const runId = randomUUID();
    const history: unknown[] = [{ role: 'user', content: input }];
    let currentTurn = 0;
    while (true) {
      if (signal?.aborted) {
        throw new Error('aborted');
      }
      currentTurn++;
      if (currentTurn > maxTurns) {
        throw new MaxTurnsExceededError(`Max turns (${maxTurns}) exceeded`);
      }
      const response = await this.model.respond(history, signal);
      const toolCalls = response.output.filter((o: any) => o.type === 'function_call');
      if (toolCalls.length === 0) {
        return response.finalOutput satisfies string;
      }
      const results = await Promise.all(
        toolCalls.map(async (call: any) => {
          const tool = this.tools.find((t) => t.name === call.name);
          return tool!.invoke(call.arguments);
        }),
      );
      history.push(...results);
    }
  }

  async drain(input: unknown[]): Promise<string> {
    let text = '';
    for await (const chunk of this.model.stream(input)) {
      text += chunk.delta;
    }
    return text;
  }
}

export const run = (r: Runner, input: string) => r.run(input);
