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
var src_exports = {};
__export(src_exports, {
  Agent: () => import_agent.Agent,
  BaseAgent: () => import_base.BaseAgent,
  DEFAULT_MAX_TURNS: () => import_agent.DEFAULT_MAX_TURNS,
  MaxTurnsError: () => import_tools.MaxTurnsError,
  run: () => import_agent.run,
  runOnce: () => import_agent.runOnce
});
module.exports = __toCommonJS(src_exports);
var import_agent = require("./agent");
var import_base = require("./base");
var import_tools = require("./tools");
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  Agent,
  BaseAgent,
  DEFAULT_MAX_TURNS,
  MaxTurnsError,
  run,
  runOnce
});
