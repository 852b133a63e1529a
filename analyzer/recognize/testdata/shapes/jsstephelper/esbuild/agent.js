var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __knownSymbol = (name, symbol) => (symbol = Symbol[name]) ? symbol : /* @__PURE__ */ Symbol.for("Symbol." + name);
var __typeError = (msg) => {
  throw TypeError(msg);
};
var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);
var __await = function(promise, isYieldStar) {
  this[0] = promise;
  this[1] = isYieldStar;
};
var __asyncGenerator = (__this, __arguments, generator) => {
  var resume = (k, v, yes, no) => {
    try {
      var x = generator[k](v), isAwait = (v = x.value) instanceof __await, done = x.done;
      Promise.resolve(isAwait ? v[0] : v).then((y) => isAwait ? resume(k === "return" ? k : "next", v[1] ? { done: y.done, value: y.value } : y, yes, no) : yes({ value: y, done })).catch((e) => resume("throw", e, yes, no));
    } catch (e) {
      no(e);
    }
  }, method = (k, call, wait, clear) => it[k] = (x) => (call = new Promise((yes, no, run) => (run = () => resume(k, x, yes, no), q ? q.then(run) : run())), clear = () => q === wait && (q = 0), q = wait = call.then(clear, clear), call), q, it = {};
  return generator = generator.apply(__this, __arguments), it[__knownSymbol("asyncIterator")] = () => it, method("next"), method("throw"), method("return"), it;
};
var __yieldStar = (value) => {
  var obj = value[__knownSymbol("asyncIterator")], isAwait = false, method, it = {};
  if (obj == null) {
    obj = value[__knownSymbol("iterator")]();
    method = (k) => it[k] = (x) => obj[k](x);
  } else {
    obj = obj.call(value);
    method = (k) => it[k] = (v) => {
      if (isAwait) {
        isAwait = false;
        if (k === "throw") throw v;
        return v;
      }
      isAwait = true;
      return {
        done: false,
        value: new __await(new Promise((resolve) => {
          var x = obj[k](v);
          if (!(x instanceof Object)) __typeError("Object expected");
          resolve(x);
        }), 1)
      };
    };
  }
  return it[__knownSymbol("iterator")] = () => it, method("next"), "throw" in obj ? method("throw") : it.throw = (x) => {
    throw x;
  }, "return" in obj && method("return"), it;
};
var __forAwait = (obj, it, method) => (it = obj[__knownSymbol("asyncIterator")]) ? it.call(obj) : (obj = obj[__knownSymbol("iterator")](), it = {}, method = (key, fn) => (fn = obj[key]) && (it[key] = (arg) => new Promise((yes, no, done) => (arg = fn.call(obj, arg), done = arg.done, Promise.resolve(arg.value).then((value) => yes({ value, done }), no)))), method("next"), method("return"), it);
var agent_exports = {};
__export(agent_exports, {
  Agent: () => Agent
});
module.exports = __toCommonJS(agent_exports);
const MAX_NUM_TURNS = 20;
class Agent {
  constructor(client, tools) {
    __publicField(this, "client", client);
    __publicField(this, "tools", tools);
    __publicField(this, "messages", []);
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
    return __asyncGenerator(this, null, function* () {
      var _a, _b;
      const stream = this.client.chatCompletionStream({ messages: this.messages, tools: this.tools });
      let content = "";
      const calls = [];
      try {
        for (var iter = __forAwait(stream), more, temp, error; more = !(temp = yield new __await(iter.next())).done; more = false) {
          const chunk = temp.value;
          if ((_a = opts.abortSignal) == null ? void 0 : _a.aborted) {
            throw new Error("aborted");
          }
          if (chunk.delta.content) {
            content += chunk.delta.content;
            yield { role: "assistant", content: chunk.delta.content };
          }
          for (const tc of (_b = chunk.delta.tool_calls) != null ? _b : []) {
            calls.push(tc);
          }
        }
      } catch (temp) {
        error = [temp];
      } finally {
        try {
          more && (temp = iter.return) && (yield new __await(temp.call(iter)));
        } finally {
          if (error)
            throw error[0];
        }
      }
      this.messages.push({ role: "assistant", content });
      for (const call of calls) {
        const r = yield new __await(this.callTool(call));
        this.messages.push(r);
        yield r;
      }
    });
  }
  run(_0, _1) {
    return __asyncGenerator(this, arguments, function* (input, abortSignal, exitLoopTools = []) {
      let numTurns = 0;
      this.messages.push({ role: "user", content: input });
      while (true) {
        yield* __yieldStar(this.processSingleTurnWithTools({ exitLoopTools, abortSignal }));
        numTurns++;
        const last = this.messages.at(-1);
        if (last.role === "tool" && exitLoopTools.includes(last.name)) {
          return;
        }
        if (last.role !== "tool" && numTurns > MAX_NUM_TURNS) {
          return;
        }
      }
    });
  }
}
