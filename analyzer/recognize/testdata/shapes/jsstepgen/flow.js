// A step loop of async generators as esbuild emits them (@google/adk@2.0.0
// dist/esm/agents/llm_agent.js:437-465, 841-942, 1066-1115): while (true) drains one step's
// events and leaves on a predicate of the last one (or when the abort signal fired); the step
// drains the model generator, which relays each response of the provider's stream behind an
// after-model callback that may replace it: yield altered != null ? altered : response (an
// `altered ?? response` esbuild wrote out for a plain name); the postprocessing generator
// hands the reply's function calls to a helper that looks the tools up by name.
var _a;
class Agent {
  constructor(llm, tools) {
    this.llm = llm;
    this.tools = tools;
  }
  async *runAsyncImpl(ctx) {
    while (true) {
      let lastEvent = void 0;
      for await (const event of this.runOneStepAsync(ctx)) {
        if ((_a = ctx.abortSignal) == null ? void 0 : _a.aborted) {
          return;
        }
        lastEvent = event;
        yield event;
      }
      if (!lastEvent) {
        break;
      }
      if (isFinalResponse(lastEvent)) {
        break;
      }
    }
  }
  async *runOneStepAsync(ctx) {
    const request = { contents: ctx.events, tools: this.tools };
    for await (const response of this.callLlmAsync(ctx, request)) {
      for await (const event of this.postprocess(ctx, response)) {
        yield event;
      }
    }
  }
  async *callLlmAsync(ctx, request) {
    const llm = this.llm;
    const responses = llm.generateContentAsync(request, false, ctx.abortSignal);
    for await (const response of responses) {
      const altered = await this.afterModel(ctx, response);
      yield altered != null ? altered : response;
    }
  }
  async afterModel(ctx, response) {
    for (const cb of ctx.callbacks) {
      const r = await cb(response);
      if (r) {
        return r;
      }
    }
    return void 0;
  }
  async *postprocess(ctx, response) {
    ctx.events.push(response);
    yield response;
    const calls = response.functionCalls;
    if (!calls.length) {
      return;
    }
    const reply = await handleFunctionCalls(ctx, calls, this.tools);
    ctx.events.push(reply);
    yield reply;
  }
}
function isFinalResponse(event) {
  return !event.functionCalls || event.functionCalls.length === 0;
}
async function handleFunctionCalls(ctx, calls, tools) {
  const parts = [];
  for (const call of calls) {
    const tool = tools[call.name];
    const result = await tool.runAsync({ args: call.args, ctx });
    parts.push({ response: result, id: call.id });
  }
  return { parts };
}
export { Agent };
