// A step loop whose model call is made inside the attempt a retry helper repeats, itself
// through a telemetry wrapper's execute option, the result spread into a literal on its way
// back (the way the AI SDK's generateText calls doGenerate).
import { prepareRetries } from "./retries.js";

export async function run({ model, tools, telemetry, maxRetries = 2, maxSteps = 5 }) {
    const retry = prepareRetries({ maxRetries });
    const inSpan = telemetry.wrap ?? (async ({ execute }) => await execute());
    const messages = [];
    for (let step = 0; step < maxSteps; step++) {
        const response = await retry(async () => {
            const out = await inSpan({
                name: "model",
                execute: async () => {
                    const result = await model.doGenerate({ messages, tools });
                    return { ...result, id: result.id ?? "x" };
                },
            });
            return { ...out, at: Date.now() };
        });
        if (response.toolCalls.length === 0) {
            return response.text;
        }
        const outputs = await Promise.all(response.toolCalls.map((call) => tools[call.toolName].execute(call.input)));
        messages.push(...outputs);
    }
}
