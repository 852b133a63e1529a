// The same step loop with a helper that awaits the callback for each element in turn: the
// callback still takes the elements, but the tools run one after the other.
async function eachInTurn<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (const item of items) {
    out.push(await fn(item));
  }
  return out;
}

export async function loop(model: Model, registry: Record<string, Tool>, maxTurns = 6) {
  const history: Message[] = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = await model.doGenerate({ history });
    const calls = reply.toolCalls;
    if (calls.length === 0) {
      return reply.text;
    }
    const results = await eachInTurn(calls, async (call) => {
      const handler = registry[call.name];
      return await handler.run(call.args);
    });
    history.push(...results);
  }
}
