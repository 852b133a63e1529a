"use strict";
// The runToolCall closure of openai@7.55.0 lib/AbstractChatCompletionRunner.js 276-333 as a
// function declaration of a module of its own, looking the tool up in the module's table.
Object.defineProperty(exports, "__esModule", { value: true });
exports.register = register;
exports.runToolCall = runToolCall;
const functionsByName = Object.create(null);
function register(f) {
    functionsByName[f.name] = f;
}
async function runToolCall(toolCall) {
    const { name, arguments: args } = toolCall.function;
    const fn = functionsByName[name];
    if (!fn) {
        return { role: 'tool', tool_call_id: toolCall.id, content: `Invalid tool_call: ${name}` };
    }
    const rawContent = await fn.function(args);
    return { role: 'tool', tool_call_id: toolCall.id, content: String(rawContent) };
}
