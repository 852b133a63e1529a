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
var tools_exports = {};
__export(tools_exports, {
  MaxTurnsError: () => MaxTurnsError,
  default: () => tools_default,
  runTool: () => runTool
});
module.exports = __toCommonJS(tools_exports);
class MaxTurnsError extends Error {
  constructor(turns) {
    super(`max turns ${turns} reached`);
    this.turns = turns;
  }
}
async function runTool(tools, name, args) {
  const tool = tools[name];
  if (!tool) return `unknown tool ${name}`;
  return tool(args);
}
var tools_default = runTool;
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  MaxTurnsError,
  runTool
});
