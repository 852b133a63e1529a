"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MaxTurnsError = void 0;
exports.runTool = runTool;
const tslib_1 = require("tslib");
class MaxTurnsError extends Error {
    constructor(turns) {
        super(`max turns ${turns} reached`);
        this.turns = turns;
    }
}
exports.MaxTurnsError = MaxTurnsError;
function runTool(tools, name, args) {
    return tslib_1.__awaiter(this, void 0, void 0, function* () {
        const tool = tools[name];
        if (!tool)
            return `unknown tool ${name}`;
        return tool(args);
    });
}
exports.default = runTool;
