// The same streamed recursion as compiled and bundled JS writes it: the entry hands its options
// to a result class whose constructor runs the steps in an async function called where it is
// written ((async () => { … })()); the stop conditions are built by the entry from its
// parameter's default and handed over as an option; the model is called through a thunk of the
// step (const callModel = () => inSpan(() => retry(async () => callStream(…)))), and its stream
// is re-read by a ReadableStream whose pull enqueues each part; the tools run through a
// concurrency helper from a transform stage. A hook prepares each step's messages: what it
// returns is the model call's input, it is no model call.
function isStepCount(n) {
	return ({ steps }) => steps.length === n;
}
async function isStopConditionMet({ stopConditions, steps }) {
	return (await Promise.all(stopConditions.map((c) => c({ steps })))).some((met) => met);
}
async function mapWithConcurrency({ items, execute }) {
	return Promise.all(items.map(execute));
}
function isAttemptBoundary(part) {
	return part.type === "attempt-boundary";
}
function getOwn(obj, key) {
	return obj != null && Object.hasOwn(obj, key) ? obj[key] : void 0;
}
async function callStream({ model, messages, tools }) {
	const { stream } = await model.doStream({ messages, tools });
	return { stream };
}
function executeToolsFromStream({ stream, tools, messages }) {
	const pending = [];
	return stream.pipeThrough(new TransformStream({ async transform(chunk, controller) {
		controller.enqueue(chunk);
		switch (chunk.type) {
			case "tool-call":
				pending.push(chunk);
				return;
			case "finish":
				await mapWithConcurrency({
					items: pending,
					execute: async (toolCall) => {
						const tool = getOwn(tools, toolCall.toolName);
						controller.enqueue({ type: "tool-result", output: await tool.execute(toolCall.input, { messages }) });
					}
				});
		}
	} }));
}
class StreamResult {
	constructor({ model, tools, messages, stopConditions, retry, inSpan, prepareStep }) {
		const self = this;
		const steps = [];
		(async () => {
			async function step({ current }) {
				const prepared = await prepareStep?.({ steps, messages });
				const stepMessages = prepared?.messages ?? messages;
				const callModel = () => inSpan(() => retry(async () => callStream({ model, messages: stepMessages, tools })));
				const first = await callModel();
				const reader = first.stream.getReader();
				const modelStream = new ReadableStream({ async pull(controller) {
					const { done, value } = await reader.read();
					if (done) {
						controller.close();
						return;
					}
					controller.enqueue(value);
				} });
				const withResults = executeToolsFromStream({ stream: modelStream, tools, messages: stepMessages });
				const calls = [];
				const results = [];
				self.add(withResults.pipeThrough(new TransformStream({
					transform(chunk, controller) {
						if (isAttemptBoundary(chunk)) {
							calls.length = 0;
							return;
						}
						if (chunk.type === "tool-call") calls.push(chunk);
						if (chunk.type === "tool-result") results.push(chunk);
						controller.enqueue(chunk);
					},
					async flush(controller) {
						steps.push({ calls, results });
						messages.push({ role: "tool", content: results });
						const next = async () => {
							if (calls.length === 0) return false;
							if (await isStopConditionMet({ stopConditions, steps })) return false;
							return true;
						};
						if (await next()) await step({ current: current + 1 });
						else self.close();
					}
				})));
			}
			await step({ current: 0 });
		})().catch((error) => self.fail(error));
	}
}
function streamSteps({ model, tools, prompt, stopWhen = isStepCount(1), retry, inSpan, prepareStep }) {
	return new StreamResult({ model, tools, messages: [{ role: "user", content: prompt }], stopConditions: Array.isArray(stopWhen) ? stopWhen : [stopWhen], retry, inSpan, prepareStep });
}
export { streamSteps };
