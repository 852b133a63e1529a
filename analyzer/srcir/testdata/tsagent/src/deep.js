// The tool lookup three helpers below the loop (runCalls -> runEach -> prepare), the selected
// tool handed back in an object and run by the helper that receives it (execute), the loop
// inside a callback a tracing wrapper calls, and a should-stop hook (not cancellation).
export async function runDeep(ctx, model, hooks) {
  return withSpan(async () => {
    const messages = [];
    while (true) {
      const msg = await model.generate(messages);
      messages.push(msg);
      const calls = msg.content.filter((c) => c.type === "toolCall");
      if (calls.length === 0) return msg;
      const results = await runCalls(ctx, msg, calls);
      for (const r of results) messages.push(r);
      if (await hooks.shouldStopAfterTurn?.({ msg })) return msg;
    }
  });
}
function withSpan(fn) {
  return fn();
}
async function runCalls(ctx, msg, calls) {
  return runEach(ctx, msg, calls);
}
async function runEach(ctx, msg, calls) {
  const out = [];
  for (const call of calls) {
    const prepared = prepare(ctx, call);
    out.push(await execute(prepared));
  }
  return out;
}
function prepare(ctx, call) {
  const tool = ctx.tools.find((t) => t.name === call.name);
  return { tool, call };
}
async function execute(prepared) {
  return prepared.tool.execute(prepared.call.arguments);
}
