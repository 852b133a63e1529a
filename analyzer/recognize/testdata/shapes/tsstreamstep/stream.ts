// A streamed step loop written as a recursion through a stream's callbacks: each step pipes the
// model's stream through a transform that runs the tools as their calls arrive, then through a
// transform that collects the step's tool calls; its flush starts the next step (the function
// calls itself from the object literal handed to new TransformStream) unless the step asked
// for no tool or a stop condition of stopWhen holds (default: one step).
export function stepCountIs(n: number) {
  return ({ steps }: { steps: unknown[] }) => steps.length === n;
}

async function isStopConditionMet({ stopConditions, steps }: { stopConditions: StopCondition[]; steps: Step[] }) {
  return (await Promise.all(stopConditions.map((condition) => condition({ steps })))).some((met) => met);
}

function runToolsFromStream({ stream, tools }: { stream: ReadableStream<Part>; tools: Record<string, Tool> }) {
  return stream.pipeThrough(new TransformStream<Part, Part>({
    async transform(chunk, controller) {
      controller.enqueue(chunk);
      if (chunk.type === "tool-call") {
        const tool = tools[chunk.toolName];
        const output = await tool.execute(chunk.input);
        controller.enqueue({ type: "tool-result", toolCallId: chunk.toolCallId, output });
      }
    },
  }));
}

export function streamText({ model, tools, prompt, stopWhen = stepCountIs(1) }: { model: Model; tools: Record<string, Tool>; prompt: string; stopWhen?: StopCondition | StopCondition[] }) {
  const stopConditions = Array.isArray(stopWhen) ? stopWhen : [stopWhen];
  const steps: Step[] = [];
  const messages: Message[] = [{ role: "user", content: prompt }];
  const output = new StitchableStream<Part>();
  async function streamStep({ currentStep }: { currentStep: number }) {
    const { stream } = await model.doStream({ messages, tools });
    const withToolResults = runToolsFromStream({ stream, tools });
    const stepToolCalls: Part[] = [];
    const stepToolResults: Part[] = [];
    output.addStream(withToolResults.pipeThrough(new TransformStream<Part, Part>({
      transform(chunk, controller) {
        if (chunk.type === "tool-call") stepToolCalls.push(chunk);
        if (chunk.type === "tool-result") stepToolResults.push(chunk);
        controller.enqueue(chunk);
      },
      async flush(controller) {
        steps.push({ toolCalls: stepToolCalls, toolResults: stepToolResults });
        messages.push({ role: "assistant", content: stepToolCalls }, { role: "tool", content: stepToolResults });
        if (stepToolCalls.length === 0) {
          output.close();
          return;
        }
        if (await isStopConditionMet({ stopConditions, steps })) {
          output.close();
          return;
        }
        await streamStep({ currentStep: currentStep + 1 });
      },
    })));
  }
  streamStep({ currentStep: 0 });
  return output.stream;
}
