// The reply of an async-generator step loop reaches the tools through helpers of a module
// that is not mapped and four helpers deep (@google/adk@2.0.0 dist/esm/agents/llm_agent.js:
// 876-1005, dist/esm/agents/functions.js:188-386, events/event.js not mapped): the step
// prepares an event (createEvent({ id })) and hands it to the model generator; the
// postprocessing generator merges the prepared event and the response into a new event
// (createEvent({ ...prepared, ...response }): the response, the last spread, is what the new
// object is), reads its function calls with a getter (getFunctionCalls(merged)) and hands
// them on in an object argument: handleFunctionCallsAsync({ functionCallEvent }) ->
// handleFunctionCallList({ functionCalls }) -> getToolAndContext({ functionCall, toolsDict })
// looking the tool up by name and returning it in an object the caller destructures.
import { createEvent, getFunctionCalls } from "../events/event.js";
import { handleFunctionCallsAsync } from "./functions.js";

class Agent {
  constructor(llm, tools) {
    this.llm = llm;
    this.tools = tools;
  }
  async *runAsyncImpl(ctx) {
    while (true) {
      let lastEvent = void 0;
      for await (const event of this.runOneStepAsync(ctx)) {
        lastEvent = event;
        yield event;
      }
      if (!lastEvent || isFinalResponse(lastEvent)) {
        break;
      }
    }
  }
  async *runOneStepAsync(ctx) {
    const request = { contents: ctx.events, toolsDict: this.tools };
    const prepared = createEvent({ invocationId: ctx.invocationId, author: "agent" });
    for await (const response of this.callLlmAsync(ctx, request, prepared)) {
      for await (const event of this.postprocess(ctx, request, response, prepared)) {
        yield event;
      }
    }
  }
  async *callLlmAsync(ctx, request, prepared) {
    const llm = this.llm;
    for await (const response of llm.generateContentAsync(request, false, ctx.abortSignal)) {
      yield response;
    }
  }
  async *postprocess(ctx, request, response, prepared) {
    const merged = createEvent({ ...prepared, ...response });
    yield merged;
    if (!getFunctionCalls(merged).length) {
      return;
    }
    const reply = await handleFunctionCallsAsync({ ctx, functionCallEvent: merged, toolsDict: request.toolsDict });
    ctx.events.push(reply);
    yield reply;
  }
}
function isFinalResponse(event) {
  return !getFunctionCalls(event).length;
}
export { Agent };
