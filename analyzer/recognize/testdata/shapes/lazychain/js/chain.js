"use strict";
// The TypeScript chain compiled (tsc, ES2020, CommonJS): the model runs when a response is
// consumed ([Symbol.asyncIterator]), a chain asks for the next one while tools produce results.
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChainResponse = exports.Response = void 0;
class Response {
    constructor(prompt, model, conversation) {
        this.prompt = prompt;
        this.model = model;
        this.conversation = conversation;
        this.chunks = [];
        this.calls = [];
        this.done = false;
    }
    async *[Symbol.asyncIterator]() {
        for await (const chunk of this.model.execute(this.prompt, { response: this, conversation: this.conversation })) {
            this.chunks.push(chunk);
            yield chunk;
        }
        this.done = true;
    }
    async force() {
        if (!this.done) {
            for await (const _ of this) {
            }
        }
    }
    async toolCalls() {
        await this.force();
        return this.calls;
    }
    async executeToolCalls() {
        const byName = new Map(this.prompt.tools.map((t) => [t.name, t]));
        const calls = await this.toolCalls();
        const results = await Promise.all(calls.map(async (tc) => {
            const tool = byName.get(tc.name);
            return { name: tc.name, output: tool ? await tool.implementation(tc.arguments) : "no such tool" };
        }));
        return results;
    }
}
exports.Response = Response;
class ChainResponse {
    constructor(prompt, model, chainLimit) {
        this.prompt = prompt;
        this.model = model;
        this.chainLimit = chainLimit;
    }
    async *responses() {
        let count = 0;
        let current = new Response(this.prompt, this.model);
        while (current) {
            count++;
            yield current;
            if (this.chainLimit && count >= this.chainLimit) {
                throw new Error("Chain limit reached");
            }
            const toolResults = await current.executeToolCalls();
            if (toolResults.length > 0) {
                current = new Response({ text: "", tools: this.prompt.tools, toolResults }, this.model);
            }
            else {
                break;
            }
        }
    }
}
exports.ChainResponse = ChainResponse;
