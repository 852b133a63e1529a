export async function runTurns(model: any, tools: Record<string, (a: unknown) => Promise<string>>, input: unknown[], maxTurns = 8, signal?: AbortSignal) {
  // bounded, but the signal only travels into the model call: never checked between steps
  for (let turn = 0; turn < maxTurns; turn++) {
    const res = await model.create({ input, signal });
    if (res.toolCalls.length === 0) {
      return res.text;
    }
    for (const tc of res.toolCalls) {
      const out = await tools[tc.name](tc.args);
      input.push({ type: 'tool_result', id: tc.id, out });
    }
  }
  throw new Error('max turns');
}
