"use strict";
// openai@7.55.0 lib/AbstractChatCompletionRunner.js 338-392 as a plain function: the tool
// runner is a function of another module handed by name to map under Promise.all.
Object.defineProperty(exports, "__esModule", { value: true });
exports.runTools = runTools;
const run_tool_1 = require("./run-tool.js");
async function runTools(client, params, maxChatCompletions = 10) {
    const messages = [...params.messages];
    for (let i = 0; i < maxChatCompletions; ++i) {
        const chatCompletion = await client.chat.completions.create({ ...params, messages });
        const message = chatCompletion.choices[0]?.message;
        messages.push(message);
        if (!message.tool_calls?.length) {
            return message.content;
        }
        const results = await Promise.all(message.tool_calls.map(run_tool_1.runToolCall));
        messages.push(...results);
    }
}
