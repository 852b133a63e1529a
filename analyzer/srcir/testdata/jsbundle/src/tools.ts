// Tool execution: every call of a step runs, then its results go back to the model.
export type Tool = (args: unknown) => Promise<string>;

export class MaxTurnsError extends Error {
  constructor(readonly turns: number) {
    super(`max turns ${turns} reached`);
  }
}

export async function runTool(tools: Record<string, Tool>, name: string, args: unknown): Promise<string> {
  const tool = tools[name];
  if (!tool) return `unknown tool ${name}`;
  return tool(args);
}

export default runTool;
