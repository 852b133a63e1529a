"use strict";
// A TypeScript class with private fields and methods (#client, #reply, #send, #runTool) as
// tsc compiles it below ES2022: the fields are WeakMaps read and written through tslib's
// helpers, the methods functions beside the class called through a WeakSet of instances.
var _Runner_instances, _Runner_client, _Runner_tools, _Runner_reply, _Runner_send, _Runner_runTool;
Object.defineProperty(exports, "__esModule", { value: true });
exports.Runner = void 0;
const tslib_1 = require("tslib");
class Runner {
    constructor(client, tools) {
        _Runner_instances.add(this);
        _Runner_client.set(this, void 0);
        _Runner_tools.set(this, void 0);
        _Runner_reply.set(this, void 0);
        tslib_1.__classPrivateFieldSet(this, _Runner_client, client, "f");
        tslib_1.__classPrivateFieldSet(this, _Runner_tools, new Map(tools.map((t) => [t.name, t])), "f");
    }
    async run(messages, maxTurns = 10) {
        for (let turn = 0; turn < maxTurns; turn++) {
            tslib_1.__classPrivateFieldSet(this, _Runner_reply, await tslib_1.__classPrivateFieldGet(this, _Runner_instances, "m", _Runner_send).call(this, messages), "f");
            const reply = tslib_1.__classPrivateFieldGet(this, _Runner_reply, "f");
            if (!reply.tool_calls.length) {
                return reply.content;
            }
            const results = await Promise.all(reply.tool_calls.map((call) => tslib_1.__classPrivateFieldGet(this, _Runner_instances, "m", _Runner_runTool).call(this, call)));
            messages.push(...results);
        }
        throw new Error(`max turns (${maxTurns}) exceeded`);
    }
}
exports.Runner = Runner;
_Runner_client = new WeakMap(), _Runner_tools = new WeakMap(), _Runner_reply = new WeakMap(), _Runner_instances = new WeakSet(), _Runner_send = async function _Runner_send(messages) {
    return tslib_1.__classPrivateFieldGet(this, _Runner_client, "f").chat.completions.create({
        messages,
        tools: [...tslib_1.__classPrivateFieldGet(this, _Runner_tools, "f").values()],
    });
}, _Runner_runTool = async function _Runner_runTool(call) {
    const tool = tslib_1.__classPrivateFieldGet(this, _Runner_tools, "f").get(call.name);
    return { role: "tool", content: await tool.execute(call.arguments) };
};
