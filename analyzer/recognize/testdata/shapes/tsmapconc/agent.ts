// A step loop whose tool calls run through a concurrency helper: the callback handed to
// mapWithConcurrency as its execute option is awaited once per element of its items, all at
// once (Promise.all over items.map(execute)) or by a pool of workers; the callback hands each
// call to a helper that looks the tool up by name through a lookup helper (getOwn) and runs
// it inside a tracing wrapper's execute option.
function getOwn<T>(table: Record<string, T> | undefined, key: string): T | undefined {
  return table != null && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

async function mapWithConcurrency<T, R>({ items, limit, execute }: { items: T[]; limit?: number; execute: (item: T, i: number) => Promise<R> }): Promise<R[]> {
  if (limit == null || limit >= items.length) return Promise.all(items.map(execute));
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (true) {
      const i = next++;
      if (i >= items.length) return;
      out[i] = await execute(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return out;
}

async function runOne({ call, tools, span }: { call: ToolCall; tools: Record<string, Tool>; span?: Span }) {
  const { toolName, input } = call;
  const tool = getOwn(tools, toolName);
  if (tool == null) return undefined;
  const inSpan = span ?? (async ({ execute }: { execute: () => Promise<unknown> }) => await execute());
  return await inSpan({
    execute: async () => {
      const output = await tool.execute(input, { id: call.id });
      return { id: call.id, output };
    },
  });
}

async function executeTools({ calls, tools, limit }: { calls: ToolCall[]; tools: Record<string, Tool>; limit?: number }) {
  return (await mapWithConcurrency({
    items: calls,
    limit,
    execute: async (call) => await runOne({ call, tools }),
  })).filter((r) => r != null);
}

export async function generate({ model, tools, maxSteps = 4, limit }: { model: Model; tools: Record<string, Tool>; maxSteps?: number; limit?: number }) {
  const messages: Message[] = [];
  for (let step = 0; step < maxSteps; step++) {
    const response = await model.doGenerate({ messages, tools });
    const calls = response.content.filter((part) => part.type === "tool-call");
    if (calls.length === 0) {
      return response.text;
    }
    const results = await executeTools({ calls, tools, limit });
    messages.push({ role: "tool", content: results });
  }
}
