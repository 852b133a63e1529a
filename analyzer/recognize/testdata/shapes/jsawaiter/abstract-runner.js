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
    _createChatCompletion(client, params, opts) {
        return tslib_1.__awaiter(this, void 0, void 0, function* () {
            return client.chat.completions.create(params, opts);
        });
    }
    _runTools(client, params, options) {
        return tslib_1.__classPrivateFieldGet(this, _AbstractRunner_instances, "m", _AbstractRunner_loop).call(this, client, params, options);
    }
}
exports.AbstractRunner = AbstractRunner;
_AbstractRunner_functions = new WeakMap(), _AbstractRunner_instances = new WeakSet(), _AbstractRunner_addMessage = function _AbstractRunner_addMessage(m) {
    this.messages.push(m);
}, _AbstractRunner_loop = function _AbstractRunner_loop(client, params, options) {
    return tslib_1.__awaiter(this, void 0, void 0, function* () {
        var _a, _b, _c;
        const { maxChatCompletions = constants_1.DEFAULT_MAX_CHAT_COMPLETIONS } = options || {};
        for (const f of params.tools) {
            tslib_1.__classPrivateFieldGet(this, _AbstractRunner_functions, "f")[f.function.name] = f.function;
        }
        for (let i = 0; i < maxChatCompletions; ++i) {
            const chatCompletion = yield this._createChatCompletion(client, Object.assign(Object.assign({}, params), { messages: [...this.messages] }), options);
            const message = (_a = chatCompletion.choices[0]) === null || _a === void 0 ? void 0 : _a.message;
            if (!message) {
                throw new Error("missing message");
            }
            tslib_1.__classPrivateFieldGet(this, _AbstractRunner_instances, "m", _AbstractRunner_addMessage).call(this, message);
            if (!((_b = message.tool_calls) === null || _b === void 0 ? void 0 : _b.length)) {
                return;
            }
            const results = yield Promise.allSettled(message.tool_calls.map((tc) => tslib_1.__classPrivateFieldGet(this, _AbstractRunner_functions, "f")[tc.function.name].function(JSON.parse(tc.function.arguments))));
            for (const r of results) {
                tslib_1.__classPrivateFieldGet(this, _AbstractRunner_instances, "m", _AbstractRunner_addMessage).call(this, { role: "tool", content: String(r) });
            }
            if ((_c = options === null || options === void 0 ? void 0 : options.signal) === null || _c === void 0 ? void 0 : _c.aborted) {
                throw new Error("aborted");
            }
        }
    });
};
