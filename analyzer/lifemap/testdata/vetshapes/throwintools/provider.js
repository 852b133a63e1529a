// Modelled on multi-llm-ts@5.1.1 dist/index.js:1811-1910 (openai_default.responsesChat) and
// 1237-1330 (LlmEngine.callTool), cut down: a while (true) turn loop whose tool branch parses
// each call's arguments in a try whose catch throws, runs the tools, sends the follow-up
// request and continues. The throw in the catch of the loop over the tool calls made the
// tool branch read as a failure path and the loop as a retry loop, so the turn loop (no
// bound; the abort signal only turns into a tool result) was not found and unboundedloop
// missed it. It is a real defect (bench/corpus-pyts-holdout4 multi-llm-ts m.d1).
export class Provider {
  async *callTool(context, tool, args) {
    const toolOwner = this.plugins.find((plugin) => plugin.getName() === tool);
    if (context.abortSignal?.aborted) {
      yield { type: "result", result: { error: "Operation cancelled" }, canceled: true };
      return;
    }
    const result = await toolOwner.execute(context, args);
    yield { type: "result", result };
  }

  async responsesChat(model, thread, opts) {
    const request = { model: model.id, input: thread };
    let text = "";
    let response = await this.client.responses.create(request);
    while (true) {
      const toolCalls = response.output?.filter((o) => o.type === "function_call");
      if (toolCalls.length) {
        const followReqInput = [];
        for (const toolCall of toolCalls) {
          let args = null;
          try {
            args = JSON.parse(toolCall.arguments);
          } catch (err) {
            throw new Error(`[openai] tool call ${toolCall.name} with invalid JSON args: "${toolCall.arguments}"`, { cause: err });
          }
          let lastUpdate = void 0;
          for await (const update of this.callTool({ model: model.id, abortSignal: opts?.abortSignal }, toolCall.name, args)) {
            if (update.type === "result") {
              lastUpdate = update;
            }
          }
          followReqInput.push({ type: "function_call_output", call_id: toolCall.call_id, output: JSON.stringify(lastUpdate.result) });
        }
        const followUpReq = { model: model.id, previous_response_id: response.id, input: followReqInput, stream: false };
        response = await this.client.responses.create(followUpReq);
        continue;
      }
      return { type: "text", content: text };
    }
  }
}
