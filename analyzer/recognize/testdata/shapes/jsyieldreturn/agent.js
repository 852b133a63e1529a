// Modelled on @strands-agents/sdk 1.19.0 dist/src/agent/agent.js:1037-1172 (Agent._stream),
// 1478-1560 (_invokeModel) and 1720-1740 (_streamFromModel): the model step is an async
// generator delegated with yield*, whose *return value* (not what it yields) is the model's
// result: const modelResult = yield* this._invokeModel(); the loop leaves when its stop
// reason is not tool use.
export class Agent {
    constructor(model, tools) {
        this.model = model;
        this.toolRegistry = new Map(tools.map((t) => [t.name, t]));
        this.messages = [];
    }
    async *stream(args) {
        const result = yield* this._stream(args);
        return result;
    }
    async *_stream(args) {
        this.messages.push(args);
        while (true) {
            this._throwIfCancelled();
            const modelResult = yield* this._invokeModel();
            if (modelResult.stopReason !== 'toolUse') {
                yield this._appendMessage(modelResult.message);
                return { stopReason: modelResult.stopReason, lastMessage: modelResult.message };
            }
            const toolsResult = yield* this.executeTools(modelResult.message);
            yield this._appendMessage(modelResult.message);
            yield this._appendMessage(toolsResult.message);
        }
    }
    _throwIfCancelled() {
        if (this.isCancelled) {
            throw new Error('cancelled');
        }
    }
    _appendMessage(m) {
        this.messages.push(m);
        return { type: 'message', message: m };
    }
    async *_invokeModel() {
        const gen = this.model.streamAggregated(this.messages, {});
        let result = await gen.next();
        while (!result.done) {
            yield result.value;
            result = await gen.next();
        }
        return result.value;
    }
    async *executeTools(assistantMessage) {
        const toolUseBlocks = assistantMessage.content.filter((block) => block.type === 'toolUseBlock');
        const results = [];
        for (const toolUseBlock of toolUseBlocks) {
            const tool = this.toolRegistry.get(toolUseBlock.name);
            const r = yield* tool.stream(toolUseBlock.input);
            results.push(r);
        }
        return { message: { role: 'user', content: results } };
    }
}
