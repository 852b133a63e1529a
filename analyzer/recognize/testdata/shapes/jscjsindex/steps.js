"use strict";
// The step loop (ai@6.0.325 dist/index.js:4858 in shape): call the model, leave with the text
// when the reply asks for no tool, else run each tool by its name and feed the results into
// the next call; at the limit, fail.
Object.defineProperty(exports, "__esModule", { value: true });
exports.generateText = generateText;
async function generateText({ model, tools, messages, maxSteps = 20 }) {
    for (let step = 0; step < maxSteps; step++) {
        const reply = await model.doGenerate({ prompt: messages, tools });
        if (reply.toolCalls.length === 0) {
            return { text: reply.text, steps: step + 1 };
        }
        for (const call of reply.toolCalls) {
            const output = await tools[call.toolName].execute(call.input);
            messages.push({ role: "tool", toolCallId: call.toolCallId, content: output });
        }
    }
    throw new Error("maximum steps reached");
}
