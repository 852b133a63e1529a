"use strict";
// Modelled on openai@7.55.0 lib/AbstractChatCompletionRunner.js 13, 196-201, 209-395
// (_runTools): a protected loop with a bound destructured beside another option, tools run by a
// local closure handed by name to map under Promise.allSettled (or called one by one), the
// history sent through a mapper handed by name.
Object.defineProperty(exports, "__esModule", { value: true });
exports.AbstractRunner = void 0;
const event_stream_1 = require("./event-stream.js");
const DEFAULT_MAX_CHAT_COMPLETIONS = 10;
function toRequestMessage(message) {
    return { role: message.role, content: message.content, tool_calls: message.tool_calls };
}
class AbstractRunner extends event_stream_1.EventStream {
    constructor() {
        super(...arguments);
        this.messages = [];
    }
    _addMessage(message) {
        this.messages.push(message);
    }
    async _createChatCompletion(client, params, options) {
        return await client.chat.completions.create({ ...params, stream: false }, { ...options, signal: this.controller.signal });
    }
    async _runTools(client, params, runner, options) {
        const { tool_choice = 'auto', ...restParams } = params;
        const { maxChatCompletions = DEFAULT_MAX_CHAT_COMPLETIONS, afterCompletion } = options || {};
        const functionsByName = Object.create(null);
        for (const f of params.tools) {
            functionsByName[f.function.name] = f.function;
        }
        const runToolCall = async (toolCall) => {
            const { name, arguments: args } = toolCall.function;
            const fn = functionsByName[name];
            if (!fn) {
                return { message: { role: 'tool', tool_call_id: toolCall.id, content: `Invalid tool_call: ${name}` } };
            }
            const rawContent = await fn.function(args, runner);
            return { message: { role: 'tool', tool_call_id: toolCall.id, content: String(rawContent) } };
        };
        for (let i = 0; i < maxChatCompletions; ++i) {
            const chatCompletion = await this._createChatCompletion(client, {
                ...restParams,
                tool_choice,
                messages: this.messages.map(toRequestMessage),
            }, options);
            const message = chatCompletion.choices[0]?.message;
            if (!message) {
                throw new Error(`missing message in ChatCompletion response`);
            }
            this._addMessage(message);
            if (!message.tool_calls?.length) {
                await afterCompletion?.(chatCompletion, runner);
                return;
            }
            if (params.parallel_tool_calls === false) {
                for (const toolCall of message.tool_calls) {
                    const result = await runToolCall(toolCall);
                    this._addMessage(result.message);
                }
            }
            else {
                const results = await Promise.allSettled(message.tool_calls.map(runToolCall));
                for (const result of results) {
                    if (result.status === 'rejected') {
                        throw result.reason;
                    }
                }
                for (const result of results) {
                    this._addMessage(result.value.message);
                }
            }
            if (this.controller.signal.aborted) {
                throw new Error('Request was aborted.');
            }
        }
    }
}
exports.AbstractRunner = AbstractRunner;
