// Tool execution: every call of a step runs, then its results go back to the model.
"use strict";
Object.defineProperty(exports, "__esModule", {
    value: true
});
function _export(target, all) {
    for(var name in all)Object.defineProperty(target, name, {
        enumerable: true,
        get: all[name]
    });
}
_export(exports, {
    MaxTurnsError: function() {
        return MaxTurnsError;
    },
    default: function() {
        return _default;
    },
    runTool: function() {
        return runTool;
    }
});
function _define_property(obj, key, value) {
    if (key in obj) {
        Object.defineProperty(obj, key, {
            value: value,
            enumerable: true,
            configurable: true,
            writable: true
        });
    } else {
        obj[key] = value;
    }
    return obj;
}
class MaxTurnsError extends Error {
    constructor(turns){
        super(`max turns ${turns} reached`), _define_property(this, "turns", void 0), this.turns = turns;
    }
}
async function runTool(tools, name, args) {
    const tool = tools[name];
    if (!tool) return `unknown tool ${name}`;
    return tool(args);
}
const _default = runTool;
