"use strict";
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
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
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var __publicField = (obj, key, value) => __defNormalProp(obj, typeof key !== "symbol" ? key + "" : key, value);
var __accessCheck = (obj, member, msg) => member.has(obj) || __typeError("Cannot " + msg);
var __privateGet = (obj, member, getter) => (__accessCheck(obj, member, "read from private field"), getter ? getter.call(obj) : member.get(obj));
var __privateAdd = (obj, member, value) => member.has(obj) ? __typeError("Cannot add the same private member more than once") : member instanceof WeakSet ? member.add(obj) : member.set(obj, value);
var __privateSet = (obj, member, value, setter) => (__accessCheck(obj, member, "write to private field"), setter ? setter.call(obj, value) : member.set(obj, value), value);
var agent_exports = {};
__export(agent_exports, {
  Agent: () => Agent,
  DEFAULT_MAX_TURNS: () => DEFAULT_MAX_TURNS,
  run: () => run,
  runOnce: () => runOnce
});
module.exports = __toCommonJS(agent_exports);
var import_base = require("./base");
var import_tools = __toESM(require("./tools"));
var _tools;
const DEFAULT_MAX_TURNS = 8;
const _Agent = class _Agent extends import_base.BaseAgent {
  constructor(model, tools) {
    super(model);
    __publicField(this, "maxTurns", DEFAULT_MAX_TURNS);
    __privateAdd(this, _tools);
    __privateSet(this, _tools, tools);
  }
  static create(model, tools) {
    return new _Agent(model, tools);
  }
  async run(input, signal) {
    const messages = [{ role: "user", content: input }];
    for (let turn = 0; turn < this.maxTurns; turn++) {
      if (signal?.aborted) throw new Error("aborted");
      const reply = await this.step(messages);
      messages.push(reply);
      if (!reply.toolCalls || reply.toolCalls.length === 0) return reply;
      for (const call of reply.toolCalls) {
        messages.push(await (0, import_tools.default)(__privateGet(this, _tools), call.name, call.args));
      }
    }
    throw new import_tools.MaxTurnsError(this.maxTurns);
  }
  async *stream(input) {
    const messages = [{ role: "user", content: input }];
    while (true) {
      const reply = await this.step(messages);
      yield reply;
      if (!reply.toolCalls?.length) return;
      for (const call of reply.toolCalls) {
        messages.push(await (0, import_tools.default)(__privateGet(this, _tools), call.name, call.args));
      }
    }
  }
};
_tools = new WeakMap();
let Agent = _Agent;
async function run(model, tools, input) {
  return Agent.create(model, tools).run(input);
}
const runOnce = async (model, tools, input) => Agent.create(model, tools).run(input);
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  Agent,
  DEFAULT_MAX_TURNS,
  run,
  runOnce
});
