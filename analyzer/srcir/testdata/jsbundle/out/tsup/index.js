"use strict";
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
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
var BaseAgent = class {
  constructor(model) {
    this.model = model;
  }
  history = [];
  async step(messages) {
    this.history.push(messages.length);
    return this.model.chat(messages);
  }
};

// src/tools.ts
var MaxTurnsError = class extends Error {
  constructor(turns) {
    super(`max turns ${turns} reached`);
    this.turns = turns;
  }
};
async function runTool(tools, name, args) {
  const tool = tools[name];
  if (!tool) return `unknown tool ${name}`;
  return tool(args);
}
var tools_default = runTool;

// src/agent.ts
var DEFAULT_MAX_TURNS = 8;
var Agent = class _Agent extends BaseAgent {
  maxTurns = DEFAULT_MAX_TURNS;
  #tools;
  constructor(model, tools) {
    super(model);
    this.#tools = tools;
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
        messages.push(await tools_default(this.#tools, call.name, call.args));
      }
    }
    throw new MaxTurnsError(this.maxTurns);
  }
  async *stream(input) {
    const messages = [{ role: "user", content: input }];
    while (true) {
      const reply = await this.step(messages);
      yield reply;
      if (!reply.toolCalls?.length) return;
      for (const call of reply.toolCalls) {
        messages.push(await tools_default(this.#tools, call.name, call.args));
      }
    }
  }
};
async function run(model, tools, input) {
  return Agent.create(model, tools).run(input);
}
var runOnce = async (model, tools, input) => Agent.create(model, tools).run(input);
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  Agent,
  BaseAgent,
  DEFAULT_MAX_TURNS,
  MaxTurnsError,
  run,
  runOnce
});
