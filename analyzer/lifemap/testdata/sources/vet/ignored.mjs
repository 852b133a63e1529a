export async function loop(model, tools, history) {
  // lifeline:ignore unboundedloop the host kills the worker after 60 s
  while (true) {
    const r = await model.chat(history);
    if (!r.tool_calls?.length) return r.content;
    for (const c of r.tool_calls) history.push(await tools[c.function.name](c.function.arguments));
  }
}
