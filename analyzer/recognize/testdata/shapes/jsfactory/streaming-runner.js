"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StreamingRunner = void 0;
const abstract_runner_1 = require("./abstract-runner");
class StreamingRunner extends abstract_runner_1.AbstractRunner {
    static runTools(client, params, options) {
        const runner = new StreamingRunner();
        runner._run(() => runner._runTools(client, params, options));
        return runner;
    }
    async _createChatCompletion(client, params, opts) {
        const stream = await client.chat.completions.create({ ...params, stream: true }, opts);
        let last;
        for await (const chunk of stream) {
            last = chunk;
        }
        return last;
    }
}
exports.StreamingRunner = StreamingRunner;
