"use strict";
// Modelled on openai@7.55.0 lib/ChatCompletionRunner.js 9-16 (runTools): a public static
// factory of a subclass in its own module hands the inherited protected loop to _run.
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChatCompletionRunner = void 0;
const abstract_runner_1 = require("./abstract-runner.js");
class ChatCompletionRunner extends abstract_runner_1.AbstractRunner {
    static runTools(client, params, options) {
        const runner = new ChatCompletionRunner();
        const opts = {
            ...options,
            __metadata: { ...options?.__metadata, helperMethod: 'runTools' },
        };
        runner._run(() => runner._runTools(client, params, runner, opts));
        return runner;
    }
}
exports.ChatCompletionRunner = ChatCompletionRunner;
