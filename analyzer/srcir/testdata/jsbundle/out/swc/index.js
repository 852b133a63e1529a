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
    Agent: function() {
        return _agent.Agent;
    },
    BaseAgent: function() {
        return _base.BaseAgent;
    },
    DEFAULT_MAX_TURNS: function() {
        return _agent.DEFAULT_MAX_TURNS;
    },
    MaxTurnsError: function() {
        return _tools.MaxTurnsError;
    },
    run: function() {
        return _agent.run;
    },
    runOnce: function() {
        return _agent.runOnce;
    }
});
const _agent = require("./agent");
const _base = require("./base");
const _tools = require("./tools");
