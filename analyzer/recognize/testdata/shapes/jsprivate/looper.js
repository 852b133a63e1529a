"use strict";
// The same as compiled by tsc with a private counter (this.#count++ is a write of
// (_a = this.#count, _a++, _a)), the reply stored in #reply by the private method #send
// whose result the loop drops, a public method named like a private one, and a thenable
// class whose then() a promise's then() elsewhere must not be taken for.
var _Looper_instances, _Looper_client, _Looper_count, _Looper_reply, _Looper_send, _Looper_respond;
Object.defineProperty(exports, "__esModule", { value: true });
exports.wait = exports.Looper = void 0;
const tslib_1 = require("tslib");
class Looper {
    constructor(client, tools, settings) {
        _Looper_instances.add(this);
        _Looper_client.set(this, client);
        _Looper_count.set(this, 0);
        _Looper_reply.set(this, void 0);
        this.tools = tools;
        this.settings = settings;
    }
    async run(messages) {
        var _a;
        while (true) {
            if (this.settings.max_rounds && tslib_1.__classPrivateFieldGet(this, _Looper_count, "f") >= this.settings.max_rounds) {
                break;
            }
            tslib_1.__classPrivateFieldSet(this, _Looper_count, (_a = tslib_1.__classPrivateFieldGet(this, _Looper_count, "f"), _a++, _a), "f");
            await tslib_1.__classPrivateFieldGet(this, _Looper_instances, "m", _Looper_send).call(this, messages);
            const reply = tslib_1.__classPrivateFieldGet(this, _Looper_reply, "f");
            if (!reply.tool_calls.length) {
                return reply;
            }
            for (const call of reply.tool_calls) {
                messages.push(await tslib_1.__classPrivateFieldGet(this, _Looper_instances, "m", _Looper_respond).call(this, call));
            }
        }
        return tslib_1.__classPrivateFieldGet(this, _Looper_reply, "f");
    }
    respond(call) {
        return { role: "tool", content: String(call.id) };
    }
    then(onfulfilled, onrejected) {
        return this.run([]).then(onfulfilled, onrejected);
    }
}
exports.Looper = Looper;
_Looper_client = new WeakMap(), _Looper_count = new WeakMap(), _Looper_reply = new WeakMap(), _Looper_instances = new WeakSet(), _Looper_send = async function _Looper_send(messages) {
    tslib_1.__classPrivateFieldSet(this, _Looper_reply, await tslib_1.__classPrivateFieldGet(this, _Looper_client, "f").create({ messages }), "f");
}, _Looper_respond = async function _Looper_respond(call) {
    return { role: "tool", content: await this.tools[call.name].run(call.input) };
};
function wait(pending) {
    return pending.then((value) => value);
}
exports.wait = wait;
