"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Runner = void 0;
const DEFAULT_MAX_TURNS = 9;
class Runner {
    constructor(client, definition, tools) {
        this.client = client;
        this.definition = definition;
        this.tools = tools;
    }
    get maxTurns() {
        var _a;
        return (_a = this.definition.runConfig.maxTurns) !== null && _a !== void 0 ? _a : DEFAULT_MAX_TURNS;
    }
    async run(task) {
        const messages = [{ role: "user", content: task }];
        for (let turn = 0; turn < this.maxTurns; turn++) {
            const reply = await this.client.chat.completions.create({ model: "m", messages });
            const msg = reply.choices[0].message;
            if (!msg.tool_calls)
                return msg.content;
            for (const call of msg.tool_calls) {
                const out = await this.tools[call.function.name](call.function.arguments);
                messages.push({ role: "tool", content: out });
            }
        }
        return undefined;
    }
}
exports.Runner = Runner;
