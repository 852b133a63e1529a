// Tool runs collected as closures and started together by Promise.all over the collection.
export async function runTasks(model, tools) {
  const messages = [];
  for (;;) {
    const reply = await model.respond(messages);
    const calls = reply.toolCalls;
    if (!calls.length) return reply;
    const pending = [];
    for (const call of calls) {
      const tool = tools[call.name];
      pending.push(async () => tool.run(call.args));
    }
    const results = await Promise.all(pending.map((task) => task()));
    messages.push(...results);
  }
}
