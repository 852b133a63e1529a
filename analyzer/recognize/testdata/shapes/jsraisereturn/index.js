// A catch that returns what an error handler of the class returns, the handler throwing on
// every path (the cancellation error when the operation was aborted, else the error after
// the end hooks ran): return this.handleError(error, oc) ends the run failed, it hands back
// no value. The run's body is a span callback whose middleware retry loop asks a fallback
// helper to run a callback calling the step loop of a module function (the dependency's
// generateText); the handler is called in the catch around that retry loop. Modelled on @voltagent/core@2.10.0 dist/index.js (tsup
// CommonJS bundle): Agent.generateText (31422: return oc.traceContext.withSpan(rootSpan,
// async () => { try { … } catch (error) { … return this.handleError(error, oc, options,
// startTime) } }), 31864) and handleError (36615-36658).
"use strict";
async function generateSteps({ model, tools, messages, maxSteps }) {
  for (let step = 0; step < maxSteps; step++) {
    const reply = await model.doGenerate({ messages, tools });
    const calls = reply.content.filter((part) => part.type === "tool-call");
    if (calls.length === 0) {
      return { text: reply.text };
    }
    for (const call of calls) {
      const tool = tools[call.toolName];
      messages.push({ role: "tool", content: await tool.execute(call.input) });
    }
  }
  return { text: "" };
}

var Agent = class {
  constructor(options) {
    this.model = options.model;
    this.tools = options.tools;
    this.maxSteps = options.maxSteps ?? 5;
  }
  async generateText(input, options) {
    const oc = { isActive: true, cancellationError: null, traceContext: options.traceContext };
    const rootSpan = oc.traceContext.getRootSpan();
    return oc.traceContext.withSpan(rootSpan, async () => {
      let retries = 0;
      try {
        while (true) {
          try {
            const { result } = await this.executeWithModelFallback({
              oc,
              run: async ({ model }) => {
                const response = await oc.traceContext.withSpan(rootSpan, () => generateSteps({ model, tools: this.tools, messages: [{ role: "user", content: input }], maxSteps: this.maxSteps }));
                return response;
              }
            });
            return { ...result, context: oc };
          } catch (retryError) {
            if (retryError.retry && retries++ < 3) {
              continue;
            }
            throw retryError;
          }
        }
      } catch (error) {
        return this.handleError(error, oc);
      }
    });
  }
  async executeWithModelFallback({ oc, run }) {
    for (const model of [this.model]) {
      const result = await run({ model });
      return { result };
    }
    throw new Error("no model");
  }
  async handleError(error, oc) {
    if (!oc.isActive && oc.cancellationError) {
      throw oc.cancellationError;
    }
    await this.onError?.(error);
    throw error;
  }
};
module.exports = { Agent };
