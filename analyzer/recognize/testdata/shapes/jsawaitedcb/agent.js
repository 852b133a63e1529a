// A run whose turn loop is reached through a callback handed to a callee the program does not
// hold, and awaited: const response = await oc.traceContext.withSpan(span, () =>
// generateText({…})) (@voltagent/core@2.10.0 dist/index.js:31567-31569, in Agent.generateText
// 31422); the caller waits for the span's body, so the run is over when the call is, and a
// sub-agent's bail caught after it hands back the final answer (return { …, finishReason:
// "bail" } at 31850, completed). A callback handed to an unknown callee without an await
// (emitter.on("tick", () => …)) is still taken to run later.
function isBailError(error) {
  return error != null && error.name === "BailError";
}

async function generateText({ model, tools, messages, maxSteps = 5 }) {
  for (let step = 0; step < maxSteps; step++) {
    const response = await model.doGenerate({ prompt: messages });
    messages.push(response.message);
    if (response.toolCalls.length === 0) {
      return { text: response.text, finishReason: "stop" };
    }
    for (const call of response.toolCalls) {
      const tool = tools[call.toolName];
      const output = await tool.execute(call.args);
      messages.push({ role: "tool", content: output });
    }
  }
  return { text: "", finishReason: "length" };
}

export class Agent {
  constructor({ model, tools }) {
    this.model = model;
    this.tools = tools;
  }

  async generateText(input, oc) {
    const messages = [{ role: "user", content: input }];
    try {
      const response = await oc.traceContext.withSpan(oc.span, () =>
        generateText({ model: this.model, tools: this.tools, messages }));
      return { text: response.text, finishReason: response.finishReason };
    } catch (error) {
      if (isBailError(error)) {
        const bailed = oc.systemContext.get("bailedResult");
        return { text: bailed.response, finishReason: "bail" };
      }
      throw error;
    }
  }

  startInBackground(input, emitter) {
    const messages = [{ role: "user", content: input }];
    emitter.on("tick", () => generateText({ model: this.model, tools: this.tools, messages }));
    return { status: "scheduled" };
  }
}
