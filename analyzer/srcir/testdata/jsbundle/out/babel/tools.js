"use strict";

Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.default = exports.MaxTurnsError = void 0;
exports.runTool = runTool;
// Tool execution: every call of a step runs, then its results go back to the model.

class MaxTurnsError extends Error {
  constructor(turns) {
    super(`max turns ${turns} reached`);
    this.turns = turns;
  }
}
exports.MaxTurnsError = MaxTurnsError;
async function runTool(tools, name, args) {
  const tool = tools[name];
  if (!tool) return `unknown tool ${name}`;
  return tool(args);
}
var _default = exports.default = runTool;