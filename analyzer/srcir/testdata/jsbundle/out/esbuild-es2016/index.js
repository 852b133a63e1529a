"use strict";
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __knownSymbol = (name, symbol) => (symbol = Symbol[name]) ? symbol : Symbol.for("Symbol." + name);
var __typeError = (msg) => {
  throw TypeError(msg);
};
var __defNormalProp = (obj, key, value) => key in obj ? __defProp(obj, key, { enumerable: true, configurable: true, writable: true, value }) : obj[key] = value;
var __name = (target, value) => __defProp(target, "name", { value, configurable: true });
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
var __accessCheck = (obj, member, msg) => member.has(obj) || __typeError("Cannot " + msg);
var __privateGet = (obj, member, getter) => (__accessCheck(obj, member, "read from private field"), getter ? getter.call(obj) : member.get(obj));
var __privateAdd = (obj, member, value) => member.has(obj) ? __typeError("Cannot add the same private member more than once") : member instanceof WeakSet ? member.add(obj) : member.set(obj, value);
var __privateSet = (obj, member, value, setter) => (__accessCheck(obj, member, "write to private field"), setter ? setter.call(obj, value) : member.set(obj, value), value);
var __async = (__this, __arguments, generator) => {
  return new Promise((resolve, reject) => {
    var fulfilled = (value) => {
      try {
        step(generator.next(value));
      } catch (e) {
        reject(e);
      }
    };
    var rejected = (value) => {
      try {
        step(generator.throw(value));
      } catch (e) {
        reject(e);
      }
    };
    var step = (x) => x.done ? resolve(x.value) : Promise.resolve(x.value).then(fulfilled, rejected);
    step((generator = generator.apply(__this, __arguments)).next());
  });
};
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
  }, method = (k) => it[k] = (x) => new Promise((yes, no) => resume(k, x, yes, no)), it = {};
  return generator = generator.apply(__this, __arguments), it[__knownSymbol("asyncIterator")] = () => it, method("next"), method("throw"), method("return"), it;
};

// src/index.ts
var src_exports = {};
__export(src_exports, {
  Agent: () => Agent,
  BaseAgent: () => BaseAgent,
  DEFAULT_MAX_TURNS: () => DEFAULT_MAX_TURNS,
  MaxTurnsError: () => MaxTurnsError,
  run: () => run,
  runOnce: () => runOnce
});
module.exports = __toCommonJS(src_exports);

// src/base.ts
var _BaseAgent = class _BaseAgent {
  constructor(model) {
    this.model = model;
    __publicField(this, "history", []);
  }
  step(messages) {
    return __async(this, null, function* () {
      this.history.push(messages.length);
      return this.model.chat(messages);
    });
  }
};
__name(_BaseAgent, "BaseAgent");
var BaseAgent = _BaseAgent;

// src/tools.ts
var _MaxTurnsError = class _MaxTurnsError extends Error {
  constructor(turns) {
    super(`max turns ${turns} reached`);
    this.turns = turns;
  }
};
__name(_MaxTurnsError, "MaxTurnsError");
var MaxTurnsError = _MaxTurnsError;
function runTool(tools, name, args) {
  return __async(this, null, function* () {
    const tool = tools[name];
    if (!tool) return `unknown tool ${name}`;
    return tool(args);
  });
}
__name(runTool, "runTool");
var tools_default = runTool;

// src/agent.ts
var DEFAULT_MAX_TURNS = 8;
var _tools;
var _Agent = class _Agent extends BaseAgent {
  constructor(model, tools) {
    super(model);
    __publicField(this, "maxTurns", DEFAULT_MAX_TURNS);
    __privateAdd(this, _tools);
    __privateSet(this, _tools, tools);
  }
  static create(model, tools) {
    return new _Agent(model, tools);
  }
  run(input, signal) {
    return __async(this, null, function* () {
      const messages = [{ role: "user", content: input }];
      for (let turn = 0; turn < this.maxTurns; turn++) {
        if (signal == null ? void 0 : signal.aborted) throw new Error("aborted");
        const reply = yield this.step(messages);
        messages.push(reply);
        if (!reply.toolCalls || reply.toolCalls.length === 0) return reply;
        for (const call of reply.toolCalls) {
          messages.push(yield tools_default(__privateGet(this, _tools), call.name, call.args));
        }
      }
      throw new MaxTurnsError(this.maxTurns);
    });
  }
  stream(input) {
    return __asyncGenerator(this, null, function* () {
      var _a;
      const messages = [{ role: "user", content: input }];
      while (true) {
        const reply = yield new __await(this.step(messages));
        yield reply;
        if (!((_a = reply.toolCalls) == null ? void 0 : _a.length)) return;
        for (const call of reply.toolCalls) {
          messages.push(yield new __await(tools_default(__privateGet(this, _tools), call.name, call.args)));
        }
      }
    });
  }
};
_tools = new WeakMap();
__name(_Agent, "Agent");
var Agent = _Agent;
function run(model, tools, input) {
  return __async(this, null, function* () {
    return Agent.create(model, tools).run(input);
  });
}
__name(run, "run");
var runOnce = /* @__PURE__ */ __name((model, tools, input) => __async(void 0, null, function* () {
  return Agent.create(model, tools).run(input);
}), "runOnce");
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  Agent,
  BaseAgent,
  DEFAULT_MAX_TURNS,
  MaxTurnsError,
  run,
  runOnce
});
