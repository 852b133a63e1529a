// The trace id is minted in a method of what a factory returns: getProvider().createTrace().
class Provider {
  createTrace() {
    return { id: `trace_${crypto.randomUUID()}` };
  }
}
let provider;
function getProvider() {
  return (provider ??= new Provider());
}
export async function runTraced(model, tools) {
  const trace = getProvider().createTrace();
  const messages = [trace.id];
  while (true) {
    const reply = await model.chat(messages);
    if (!reply.calls.length) return reply;
    for (const call of reply.calls) messages.push(await tools[call.name](call.args));
  }
}
