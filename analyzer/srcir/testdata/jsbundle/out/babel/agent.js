"use strict";

Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.DEFAULT_MAX_TURNS = exports.Agent = void 0;
exports.run = run;
exports.runOnce = void 0;
var _base = require("./base");
var _tools = _interopRequireWildcard(require("./tools"));
var cache;
function _interopRequireWildcard(e, t) { if (!t && e && e.__esModule) return e; var r, c, a = Object.defineProperty, n = { __proto__: null, default: e }; if (Object(e) !== e) return n; if (cache || "function" != typeof WeakMap || (cache = new WeakMap()), cache) { if (cache.has(e)) return cache.get(e); cache.set(e, n); } for (c in e) "default" !== c && {}.hasOwnProperty.call(e, c) && ((r = a && Object.getOwnPropertyDescriptor(e, c)) && (r.get || r.set) ? a(n, c, r) : n[c] = e[c]); return n; }
const DEFAULT_MAX_TURNS = exports.DEFAULT_MAX_TURNS = 8;
class Agent extends _base.BaseAgent {
  maxTurns = DEFAULT_MAX_TURNS;
  #tools;
  constructor(model, tools) {
    super(model);
    this.#tools = tools;
  }
  static create(model, tools) {
    return new Agent(model, tools);
  }
  async run(input, signal) {
    const messages = [{
      role: "user",
      content: input
    }];
    for (let turn = 0; turn < this.maxTurns; turn++) {
      if (signal !== null && signal !== void 0 && signal.aborted) throw new Error("aborted");
      const reply = await this.step(messages);
      messages.push(reply);
      if (!reply.toolCalls || reply.toolCalls.length === 0) return reply;
      for (const call of reply.toolCalls) {
        messages.push(await (0, _tools.default)(this.#tools, call.name, call.args));
      }
    }
    throw new _tools.MaxTurnsError(this.maxTurns);
  }
  async *stream(input) {
    const messages = [{
      role: "user",
      content: input
    }];
    while (true) {
      var _reply$toolCalls;
      const reply = await this.step(messages);
      yield reply;
      if (!((_reply$toolCalls = reply.toolCalls) !== null && _reply$toolCalls !== void 0 && _reply$toolCalls.length)) return;
      for (const call of reply.toolCalls) {
        messages.push(await (0, _tools.default)(this.#tools, call.name, call.args));
      }
    }
  }
}
exports.Agent = Agent;
async function run(model, tools, input) {
  return Agent.create(model, tools).run(input);
}
const runOnce = async (model, tools, input) => Agent.create(model, tools).run(input);
exports.runOnce = runOnce;