"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.loop = void 0;
const defaults_1 = require("./defaults");
async function loop(model, tools, messages, signal) {
    for (let turn = 0; turn < defaults_1.DEFAULT_MAX_TURNS; turn++) {
        signal.throwIfAborted();
        const reply = await model.chat(messages);
        if (!reply.tool_calls || reply.tool_calls.length === 0) {
            return reply.content;
        }
        for (const tc of reply.tool_calls) {
            const fn = tools[tc.function.name];
            const out = await fn(JSON.parse(tc.function.arguments));
            messages.push({ role: "tool", content: out });
        }
    }
    return undefined;
}
exports.loop = loop;
