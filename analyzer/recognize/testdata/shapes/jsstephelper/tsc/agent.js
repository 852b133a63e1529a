"use strict";
var __asyncValues = (this && this.__asyncValues) || function (o) {
    if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
    var m = o[Symbol.asyncIterator], i;
    return m ? m.call(o) : (o = typeof __values === "function" ? __values(o) : o[Symbol.iterator](), i = {}, verb("next"), verb("throw"), verb("return"), i[Symbol.asyncIterator] = function () { return this; }, i);
    function verb(n) { i[n] = o[n] && function (v) { return new Promise(function (resolve, reject) { v = o[n](v), settle(resolve, reject, v.done, v.value); }); }; }
    function settle(resolve, reject, d, v) { Promise.resolve(v).then(function(v) { resolve({ value: v, done: d }); }, reject); }
};
var __await = (this && this.__await) || function (v) { return this instanceof __await ? (this.v = v, this) : new __await(v); }
var __asyncGenerator = (this && this.__asyncGenerator) || function (thisArg, _arguments, generator) {
    if (!Symbol.asyncIterator) throw new TypeError("Symbol.asyncIterator is not defined.");
    var g = generator.apply(thisArg, _arguments || []), i, q = [];
    return i = Object.create((typeof AsyncIterator === "function" ? AsyncIterator : Object).prototype), verb("next"), verb("throw"), verb("return", awaitReturn), i[Symbol.asyncIterator] = function () { return this; }, i;
    function awaitReturn(f) { return function (v) { return Promise.resolve(v).then(f, reject); }; }
    function verb(n, f) { if (g[n]) { i[n] = function (v) { return new Promise(function (a, b) { q.push([n, v, a, b]) > 1 || resume(n, v); }); }; if (f) i[n] = f(i[n]); } }
    function resume(n, v) { try { step(g[n](v)); } catch (e) { settle(q[0][3], e); } }
    function step(r) { r.value instanceof __await ? Promise.resolve(r.value.v).then(fulfill, reject) : settle(q[0][2], r); }
    function fulfill(value) { resume("next", value); }
    function reject(value) { resume("throw", value); }
    function settle(f, v) { if (f(v), q.shift(), q.length) resume(q[0][0], q[0][1]); }
};
var __asyncDelegator = (this && this.__asyncDelegator) || function (o) {
    var i, p;
    return i = {}, verb("next"), verb("throw", function (e) { throw e; }), verb("return"), i[Symbol.iterator] = function () { return this; }, i;
    function verb(n, f) { i[n] = o[n] ? function (v) { return (p = !p) ? { value: __await(o[n](v)), done: false } : f ? f(v) : v; } : f; }
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Agent = void 0;
const MAX_NUM_TURNS = 20;
class Agent {
    constructor(client, tools) {
        this.client = client;
        this.tools = tools;
        this.messages = [];
    }
    async callTool(tc) {
        const tool = this.tools.find((t) => t.name === tc.name);
        if (!tool) {
            return { role: "tool", name: tc.name, content: `unknown tool ${tc.name}` };
        }
        const out = await tool.run(tc.arguments);
        return { role: "tool", name: tc.name, content: out };
    }
    processSingleTurnWithTools(opts) {
        return __asyncGenerator(this, arguments, function* processSingleTurnWithTools_1() {
            var _a, e_1, _b, _c;
            var _d;
            var _e;
            const stream = this.client.chatCompletionStream({ messages: this.messages, tools: this.tools });
            let content = "";
            const calls = [];
            try {
                for (var _f = true, stream_1 = __asyncValues(stream), stream_1_1; stream_1_1 = yield __await(stream_1.next()), _a = stream_1_1.done, !_a; _f = true) {
                    _c = stream_1_1.value;
                    _f = false;
                    const chunk = _c;
                    if ((_d = opts.abortSignal) === null || _d === void 0 ? void 0 : _d.aborted) {
                        throw new Error("aborted");
                    }
                    if (chunk.delta.content) {
                        content += chunk.delta.content;
                        yield yield __await({ role: "assistant", content: chunk.delta.content });
                    }
                    for (const tc of (_e = chunk.delta.tool_calls) !== null && _e !== void 0 ? _e : []) {
                        calls.push(tc);
                    }
                }
            }
            catch (e_1_1) { e_1 = { error: e_1_1 }; }
            finally {
                try {
                    if (!_f && !_a && (_b = stream_1.return)) yield __await(_b.call(stream_1));
                }
                finally { if (e_1) throw e_1.error; }
            }
            this.messages.push({ role: "assistant", content });
            for (const call of calls) {
                const r = yield __await(this.callTool(call));
                this.messages.push(r);
                yield yield __await(r);
            }
        });
    }
    run(input_1, abortSignal_1) {
        return __asyncGenerator(this, arguments, function* run_1(input, abortSignal, exitLoopTools = []) {
            let numTurns = 0;
            this.messages.push({ role: "user", content: input });
            while (true) {
                yield __await(yield* __asyncDelegator(__asyncValues(this.processSingleTurnWithTools({ exitLoopTools, abortSignal }))));
                numTurns++;
                const last = this.messages.at(-1);
                if (last.role === "tool" && exitLoopTools.includes(last.name)) {
                    return yield __await(void 0);
                }
                if (last.role !== "tool" && numTurns > MAX_NUM_TURNS) {
                    return yield __await(void 0);
                }
            }
        });
    }
}
exports.Agent = Agent;
