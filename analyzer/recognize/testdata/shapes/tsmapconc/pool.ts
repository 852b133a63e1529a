// A helper that starts the callback for each element without waiting for it and awaits them
// together: the tools run in parallel.
async function startAll<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const running: Promise<R>[] = [];
  for (const item of items) {
    running.push(fn(item));
  }
  return await Promise.all(running);
}

export async function drive(model: Model, registry: Record<string, Tool>, maxTurns = 6) {
  const history: Message[] = [];
  for (let turn = 0; turn < maxTurns; turn++) {
    const reply = await model.doGenerate({ history });
    const calls = reply.toolCalls;
    if (calls.length === 0) {
      return reply.text;
    }
    const results = await startAll(calls, async (call) => {
      const handler = registry[call.name];
      return await handler.run(call.args);
    });
    history.push(...results);
  }
}
