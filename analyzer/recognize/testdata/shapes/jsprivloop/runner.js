"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ToolLoop = void 0;
const stream_1 = require("./stream");
class ToolLoop extends stream_1.EventStream {
    constructor() {
        super(...arguments);
        this.messages = [];
    }
    static runTools(client, params) {
        const runner = new ToolLoop();
        runner._run(() => runner._runTools(client, params));
        return runner;
    }
    async _runTools(client, params) {
        var _a, _b;
        const maxRounds = (_a = params.maxRounds) !== null && _a !== void 0 ? _a : 10;
        for (let i = 0; i < maxRounds; i++) {
            const reply = await client.chat.completions.create({ model: params.model, messages: this.messages, tools: params.tools });
            const calls = reply.choices[0].message.tool_calls;
            if (!calls || calls.length === 0) {
                return;
            }
            const results = await Promise.allSettled(calls.map((c) => params.tools[c.function.name].run(c.function.arguments)));
            for (const r of results) {
                this.messages.push({ role: "tool", content: String(r) });
            }
            if ((_b = this.signal) === null || _b === void 0 ? void 0 : _b.aborted) {
                throw new Error("aborted");
            }
        }
    }
}
exports.ToolLoop = ToolLoop;
