"use strict";
// The streaming twin's module, re-exported by a member assignment in the index.
Object.defineProperty(exports, "__esModule", { value: true });
exports.streamText = streamText;
async function streamText({ model, tools, messages, maxSteps = 5 }) {
    let step = 0;
    while (step < maxSteps) {
        const reply = await model.doStream({ prompt: messages, tools });
        if (reply.toolCalls.length === 0) {
            return reply.text;
        }
        for (const call of reply.toolCalls) {
            messages.push({ role: "tool", content: await tools[call.toolName].execute(call.input) });
        }
        step++;
    }
    return "";
}
