"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.StreamingRunner = void 0;
const tslib_1 = require("tslib");
const abstract_runner_1 = require("./abstract-runner");
class StreamingRunner extends abstract_runner_1.AbstractRunner {
    static runTools(client, params, options) {
        const runner = new StreamingRunner();
        runner._run(() => runner._runTools(client, params, options));
        return runner;
    }
    _createChatCompletion(client, params, opts) {
        return tslib_1.__awaiter(this, void 0, void 0, function* () {
            var _a, e_1, _b, _c;
            const stream = yield client.chat.completions.create(Object.assign(Object.assign({}, params), { stream: true }), opts);
            let last;
            try {
                for (var _d = true, stream_1 = tslib_1.__asyncValues(stream), stream_1_1; stream_1_1 = yield stream_1.next(), _a = stream_1_1.done, !_a; _d = true) {
                    _c = stream_1_1.value;
                    _d = false;
                    const chunk = _c;
                    last = chunk;
                }
            }
            catch (e_1_1) { e_1 = { error: e_1_1 }; }
            finally {
                try {
                    if (!_d && !_a && (_b = stream_1.return)) yield _b.call(stream_1);
                }
                finally { if (e_1) throw e_1.error; }
            }
            return last;
        });
    }
}
exports.StreamingRunner = StreamingRunner;
