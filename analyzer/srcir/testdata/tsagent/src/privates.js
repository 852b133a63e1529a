"use strict";
// What tsc emits for a class with #private methods below ES2022: the methods become module
// functions assigned inside the first computed member name, and this.#send(x) becomes
// __classPrivateFieldGet(this, _Runner_instances, "m", _Runner_send).call(this, x).
var _Runner_instances, _Runner_client, _Runner_send, _Runner_runTool;
Object.defineProperty(exports, "__esModule", { value: true });
exports.Runner = void 0;
const tslib_1 = require("tslib");
class Runner {
    constructor(client, tools) {
        _Runner_instances.add(this);
        _Runner_client.set(this, void 0);
        tslib_1.__classPrivateFieldSet(this, _Runner_client, client, "f");
        this.tools = tools;
    }
    async *[(_Runner_client = new WeakMap(), _Runner_instances = new WeakSet(), _Runner_send = async function _Runner_send(messages) {
        return await tslib_1.__classPrivateFieldGet(this, _Runner_client, "f").messages.create({ messages });
    }, _Runner_runTool = async function _Runner_runTool(block) {
        return await this.tools[block.name].run(block.input);
    }, Symbol.asyncIterator)]() {
        const messages = [];
        while (true) {
            const reply = await tslib_1.__classPrivateFieldGet(this, _Runner_instances, "m", _Runner_send).call(this, messages);
            yield reply;
            const uses = reply.content.filter((b) => b.type === 'tool_use');
            if (uses.length === 0) return;
            for (const block of uses) {
                messages.push(await tslib_1.__classPrivateFieldGet(this, _Runner_instances, "m", _Runner_runTool).call(this, block));
            }
        }
    }
}
exports.Runner = Runner;
