"use strict";
var _AbstractRunner_instances, _AbstractRunner_functions, _AbstractRunner_addMessage, _AbstractRunner_loop;
Object.defineProperty(exports, "__esModule", { value: true });
exports.AbstractRunner = void 0;
const tslib_1 = require("tslib");
const event_stream_1 = require("./event-stream");
const constants_1 = require("./constants");
class AbstractRunner extends event_stream_1.EventStream {
    constructor() {
        super(...arguments);
        _AbstractRunner_instances.add(this);
        this.messages = [];
        _AbstractRunner_functions.set(this, {});
    }
    async _createChatCompletion(client, params, opts) {
        return client.chat.completions.create(params, opts);
    }
    _runTools(client, params, options) {
        return tslib_1.__classPrivateFieldGet(this, _AbstractRunner_instances, "m", _AbstractRunner_loop).call(this, client, params, options);
    }
}
exports.AbstractRunner = AbstractRunner;
_AbstractRunner_functions = new WeakMap(), _AbstractRunner_instances = new WeakSet(), _AbstractRunner_addMessage = function _AbstractRunner_addMessage(m) {
    this.messages.push(m);
}, _AbstractRunner_loop = async function _AbstractRunner_loop(client, params, options) {
    const { maxChatCompletions = constants_1.DEFAULT_MAX_CHAT_COMPLETIONS } = options || {};
    for (const f of params.tools) {
        tslib_1.__classPrivateFieldGet(this, _AbstractRunner_functions, "f")[f.function.name] = f.function;
    }
    for (let i = 0; i < maxChatCompletions; ++i) {
        const chatCompletion = await this._createChatCompletion(client, { ...params, messages: [...this.messages] }, options);
        const message = chatCompletion.choices[0]?.message;
        if (!message) {
            throw new Error("missing message");
        }
        tslib_1.__classPrivateFieldGet(this, _AbstractRunner_instances, "m", _AbstractRunner_addMessage).call(this, message);
        if (!message.tool_calls?.length) {
            return;
        }
        const results = await Promise.allSettled(message.tool_calls.map((tc) => tslib_1.__classPrivateFieldGet(this, _AbstractRunner_functions, "f")[tc.function.name].function(JSON.parse(tc.function.arguments))));
        for (const r of results) {
            tslib_1.__classPrivateFieldGet(this, _AbstractRunner_instances, "m", _AbstractRunner_addMessage).call(this, { role: "tool", content: String(r) });
        }
        if (options?.signal?.aborted) {
            throw new Error("aborted");
        }
    }
};
