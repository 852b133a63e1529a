import { DEFAULT_MAX_TURNS } from './defaults';

type Call = { name: string; args: unknown };
type Response = { toolCalls: Call[]; text: string };

// The decision lives in a helper that receives the model's response.
export class Engine {
  constructor(private tools: Record<string, { invoke(args: unknown): Promise<string> }>) {}

  async loop(model: { getResponse(input: unknown[]): Promise<Response> }, input: unknown[], maxTurns = DEFAULT_MAX_TURNS) {
    for (let turn = 0; turn < maxTurns; turn++) {
      const response = await model.getResponse(input);
      const step = await processResponse(response, this.tools, input);
      if (step.done) {
        return step.output;
      }
    }
    throw new Error(`max turns ${maxTurns}`);
  }
}

async function processResponse(response: Response, tools: Engine['tools' & keyof Engine] | any, input: unknown[]) {
  if (!response.toolCalls.length) {
    return { done: true, output: response.text };
  }
  for (const call of response.toolCalls) {
    input.push(await tools[call.name].invoke(call.args));
  }
  return { done: false, output: '' };
}

// A walk up a prototype chain: its result decides whether it goes on, but it is no turn loop.
export function protoDepth(value: object, maxDepth = 8): number {
  let current: object | null = value;
  let depth = 0;
  while (current !== null && depth <= maxDepth) {
    current = Object.getPrototypeOf(current);
    depth += 1;
  }
  return depth;
}
