// A streamed step recursion whose model call is a property of the object literal a span's fn
// returns: fn: async (span) => ({ startTimestampMs: now(), doStreamSpan: span, result: await
// stepModel.doStream({ … }) }), run inside retry(() => recordSpan({ … })), and the step takes
// the stream back out by destructuring that property (const { result: { stream: stream2 } } =
// await retry(…)). The stream goes through a transformation running the tools as their calls
// arrive, then through a TransformStream whose flush starts the next step unless a stop
// condition holds. Modelled on ai@6.0.325 dist/index.js (esbuild CommonJS bundle): recordSpan
// 2551-2582, runToolsTransformation 7174-7200, DefaultStreamTextResult's streamStep 8300 (retry
// 8423, doStream 8467, flush 8692, stop condition 8807-8815, recursion 8827).
"use strict";
var import_api = require("@opentelemetry/api");

async function recordSpan({ name, tracer, fn, endWhenDone = true }) {
  return tracer.startActiveSpan(name, async (span) => {
    try {
      const result = await import_api.context.with(import_api.context.active(), () => fn(span));
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

function now2() {
  return Date.now();
}

function stepCountIs(stepCount) {
  return ({ steps }) => steps.length === stepCount;
}

async function isStopConditionMet({ stopConditions, steps }) {
  return (await Promise.all(stopConditions.map((condition) => condition({ steps })))).some((result) => result);
}

async function executeToolCall({ toolCall, tools, messages, abortSignal }) {
  const tool2 = tools[toolCall.toolName];
  const output = await tool2.execute(toolCall.input, { toolCallId: toolCall.toolCallId, messages, abortSignal });
  return { type: "tool-result", toolCallId: toolCall.toolCallId, output };
}

function runToolsTransformation({ tools, generatorStream, messages, abortSignal }) {
  return generatorStream.pipeThrough(new TransformStream({
    async transform(chunk, controller) {
      controller.enqueue(chunk);
      if (chunk.type === "tool-call") {
        const result = await executeToolCall({ toolCall: chunk, tools, messages, abortSignal });
        controller.enqueue(result);
      }
    }
  }));
}

var DefaultStreamTextResult = class {
  constructor({ model, tools, messages, stopConditions, tracer, retry, abortSignal }) {
    const self = this;
    const recordedSteps = [];
    recordSpan({
      name: "ai.streamText",
      tracer,
      endWhenDone: false,
      fn: async (rootSpan) => {
        async function streamStep({ currentStep, responseMessages }) {
          const promptMessages = [...messages, ...responseMessages];
          const {
            result: { stream: stream2, response },
            doStreamSpan,
            startTimestampMs
          } = await retry(
            () => recordSpan({
              name: "ai.streamText.doStream",
              tracer,
              endWhenDone: false,
              fn: async (doStreamSpan2) => ({
                startTimestampMs: now2(),
                doStreamSpan: doStreamSpan2,
                result: await model.doStream({
                  tools,
                  prompt: promptMessages,
                  abortSignal
                })
              })
            })
          );
          const streamWithToolResults = runToolsTransformation({ tools, generatorStream: stream2, messages: promptMessages, abortSignal });
          const stepToolCalls = [];
          const stepToolOutputs = [];
          self.addStream(streamWithToolResults.pipeThrough(new TransformStream({
            async transform(chunk, controller) {
              if (chunk.type === "tool-call") {
                stepToolCalls.push(chunk);
              }
              if (chunk.type === "tool-result") {
                stepToolOutputs.push(chunk);
              }
              controller.enqueue(chunk);
            },
            async flush(controller) {
              recordedSteps.push({ toolCalls: stepToolCalls, toolResults: stepToolOutputs, startTimestampMs });
              doStreamSpan.end();
              if (stepToolCalls.length > 0 && stepToolOutputs.length === stepToolCalls.length && !await isStopConditionMet({ stopConditions, steps: recordedSteps })) {
                responseMessages.push({ role: "assistant", content: stepToolCalls }, { role: "tool", content: stepToolOutputs });
                try {
                  await streamStep({ currentStep: currentStep + 1, responseMessages });
                } catch (error) {
                  controller.enqueue({ type: "error", error });
                  self.closeStream();
                }
              } else {
                controller.enqueue({ type: "finish", response });
                self.closeStream();
              }
            }
          })));
        }
        await streamStep({ currentStep: 0, responseMessages: [] });
      }
    }).catch((error) => {
      self.closeStream();
    });
  }
  addStream(stream) {
    this.streams.push(stream);
  }
  closeStream() {
    this.closed = true;
  }
};

function streamText({ model, tools, prompt, abortSignal, tracer, retry, stopWhen = stepCountIs(1) }) {
  return new DefaultStreamTextResult({
    model,
    tools,
    messages: [{ role: "user", content: prompt }],
    stopConditions: Array.isArray(stopWhen) ? stopWhen : [stopWhen],
    tracer,
    retry,
    abortSignal
  });
}

module.exports = { streamText };
