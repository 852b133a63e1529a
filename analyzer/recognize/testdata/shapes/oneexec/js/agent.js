"use strict";
// One executor for every tool call (tsc output, ES2020, CommonJS).
Object.defineProperty(exports, "__esModule", { value: true });
exports.Agent = void 0;
class Agent {
    constructor(client, executor, maxTurns = 8) {
        this.client = client;
        this.executor = executor;
        this.maxTurns = maxTurns;
    }
    async run(input) {
        const conversation = [{ role: "user", content: input }];
        for (let turn = 0; turn < this.maxTurns; turn++) {
            const msg = await this.client.complete(conversation);
            conversation.push(msg);
            if (!msg.tool_calls || msg.tool_calls.length === 0) {
                return msg.content;
            }
            const results = await Promise.all(msg.tool_calls.map((call) => this.executor.run(call)));
            conversation.push(...results);
        }
        throw new Error("too many turns");
    }
}
exports.Agent = Agent;
