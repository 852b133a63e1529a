// Bundler/tsc output: classes bound to variables (var X = class extends Y), an inherited
// this.step, and the loop inside a callback that a wrapper hands on to a context runner.
var Base = class {
  async step(model, messages) {
    return model.chat(messages);
  }
};
var Looper = class extends Base {
  async run(model, tools, messages) {
    return traced(async () => {
      for (;;) {
        const reply = await this.step(model, messages);
        if (!reply.toolCalls || reply.toolCalls.length === 0) return reply;
        for (const call of reply.toolCalls) {
          messages.push(await tools[call.name](call.args));
        }
      }
    });
  }
};
function traced(fn) {
  return storage.run({}, fn);
}
export { Looper };
