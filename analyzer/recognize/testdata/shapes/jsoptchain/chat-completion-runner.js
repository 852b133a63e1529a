"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChatCompletionRunner = void 0;
const abstract_runner_1 = require("./abstract-runner");
class ChatCompletionRunner extends abstract_runner_1.AbstractRunner {
    static runTools(client, params, options) {
        const runner = new ChatCompletionRunner();
        const opts = Object.assign(Object.assign({}, options), { headers: Object.assign(Object.assign({}, options === null || options === void 0 ? void 0 : options.headers), { "X-Stainless-Helper-Method": "runTools" }) });
        runner._run(() => runner._runTools(client, params, opts));
        return runner;
    }
}
exports.ChatCompletionRunner = ChatCompletionRunner;
