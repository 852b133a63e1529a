"use strict";
var _Agent_tools;
Object.defineProperty(exports, "__esModule", { value: true });
exports.runOnce = exports.Agent = exports.DEFAULT_MAX_TURNS = void 0;
exports.run = run;
const tslib_1 = require("tslib");
const base_1 = require("./base");
const tools_1 = require("./tools");
exports.DEFAULT_MAX_TURNS = 8;
class Agent extends base_1.BaseAgent {
    constructor(model, tools) {
        super(model);
        this.maxTurns = exports.DEFAULT_MAX_TURNS;
        _Agent_tools.set(this, void 0);
        tslib_1.__classPrivateFieldSet(this, _Agent_tools, tools, "f");
    }
    static create(model, tools) {
        return new Agent(model, tools);
    }
    run(input, signal) {
        return tslib_1.__awaiter(this, void 0, void 0, function* () {
            const messages = [{ role: "user", content: input }];
            for (let turn = 0; turn < this.maxTurns; turn++) {
                if (signal === null || signal === void 0 ? void 0 : signal.aborted)
                    throw new Error("aborted");
                const reply = yield this.step(messages);
                messages.push(reply);
                if (!reply.toolCalls || reply.toolCalls.length === 0)
                    return reply;
                for (const call of reply.toolCalls) {
                    messages.push(yield (0, tools_1.default)(tslib_1.__classPrivateFieldGet(this, _Agent_tools, "f"), call.name, call.args));
                }
            }
            throw new tools_1.MaxTurnsError(this.maxTurns);
        });
    }
    stream(input) {
        return tslib_1.__asyncGenerator(this, arguments, function* stream_1() {
            var _a;
            const messages = [{ role: "user", content: input }];
            while (true) {
                const reply = yield tslib_1.__await(this.step(messages));
                yield yield tslib_1.__await(reply);
                if (!((_a = reply.toolCalls) === null || _a === void 0 ? void 0 : _a.length))
                    return yield tslib_1.__await(void 0);
                for (const call of reply.toolCalls) {
                    messages.push(yield tslib_1.__await((0, tools_1.default)(tslib_1.__classPrivateFieldGet(this, _Agent_tools, "f"), call.name, call.args)));
                }
            }
        });
    }
}
exports.Agent = Agent;
_Agent_tools = new WeakMap();
function run(model, tools, input) {
    return tslib_1.__awaiter(this, void 0, void 0, function* () {
        return Agent.create(model, tools).run(input);
    });
}
const runOnce = (model, tools, input) => tslib_1.__awaiter(void 0, void 0, void 0, function* () { return Agent.create(model, tools).run(input); });
exports.runOnce = runOnce;
