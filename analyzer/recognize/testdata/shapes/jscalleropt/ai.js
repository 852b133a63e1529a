// jscalleropt (ai.js): the tool loop of a dependency, reduced from ai@6.0.325 dist/index.js
// (generateText 4626, its own default stopWhen = stepCountIs(1) at 4638, the do-while
// 4858-5242; see the jsspanfn shape for the loop's parts). agent.js calls it with a stopWhen
// of its own.
var import_api = require("@opentelemetry/api");
var { prepareRetries } = require("./retries.js");

async function recordSpan({ name, tracer, fn, endWhenDone = true }) {
  return tracer.startActiveSpan(name, async (span) => {
    const ctx = import_api.context.active();
    try {
      const result = await import_api.context.with(ctx, () => fn(span));
      if (endWhenDone) {
        span.end();
      }
      return result;
    } catch (error) {
      span.end();
      throw error;
    }
  });
}

function resolveModel(chosen, fallback) {
  return chosen != null ? chosen : fallback;
}

async function convertPrompt({ messages }) {
  return messages.map((m) => ({ role: m.role, content: m.content }));
}

function stepCountIs(stepCount) {
  return ({ steps }) => steps.length === stepCount;
}

async function isStopConditionMet({ stopConditions, steps }) {
  return (await Promise.all(stopConditions.map((condition) => condition({ steps })))).some((result) => result);
}

async function generateText({ model, tools, messages, abortSignal, tracer, prepareStep, stopWhen = stepCountIs(1) }) {
  const { retry } = prepareRetries({ maxRetries: 2 });
  const stopConditions = Array.isArray(stopWhen) ? stopWhen : [stopWhen];
  return await recordSpan({
    name: "ai.generateText",
    tracer,
    fn: async (span) => {
      const initialMessages = messages;
      const responseMessages = [];
      const steps = [];
      let clientToolCalls = [];
      let clientToolOutputs = [];
      do {
        if (steps.length > 0) {
          abortSignal == null ? void 0 : abortSignal.throwIfAborted();
        }
        const stepInputMessages = [...initialMessages, ...responseMessages];
        const prepared = await (prepareStep == null ? void 0 : prepareStep({ steps, messages: stepInputMessages }));
        const stepModel = resolveModel(prepared == null ? void 0 : prepared.model, model);
        const stepTools = (prepared == null ? void 0 : prepared.tools) ?? tools;
        const promptMessages = await convertPrompt({ messages: (prepared == null ? void 0 : prepared.messages) ?? stepInputMessages });
        const response = await retry(
          () => recordSpan({
            name: "ai.generateText.doGenerate",
            tracer,
            fn: async (span2) => {
              const result = await stepModel.doGenerate({ prompt: promptMessages, tools: stepTools });
              span2.setAttributes({ "ai.response.id": result.id });
              return { ...result, at: Date.now() };
            },
          })
        );
        clientToolCalls = response.content.filter((part) => part.type === "tool-call");
        clientToolOutputs = [];
        clientToolOutputs.push(
          ...await Promise.all(clientToolCalls.map((call) => stepTools[call.toolName].execute(call.input)))
        );
        responseMessages.push(...clientToolOutputs);
        steps.push(response);
      } while (clientToolCalls.length > 0 && clientToolOutputs.length === clientToolCalls.length && !await isStopConditionMet({ stopConditions, steps }));
      return steps[steps.length - 1];
    },
  });
}

module.exports = { generateText, stepCountIs };
