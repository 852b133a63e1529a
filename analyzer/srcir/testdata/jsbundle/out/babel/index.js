"use strict";

Object.defineProperty(exports, "__esModule", {
  value: true
});
Object.defineProperty(exports, "Agent", {
  enumerable: true,
  get: function () {
    return _agent.Agent;
  }
});
Object.defineProperty(exports, "BaseAgent", {
  enumerable: true,
  get: function () {
    return _base.BaseAgent;
  }
});
Object.defineProperty(exports, "DEFAULT_MAX_TURNS", {
  enumerable: true,
  get: function () {
    return _agent.DEFAULT_MAX_TURNS;
  }
});
Object.defineProperty(exports, "MaxTurnsError", {
  enumerable: true,
  get: function () {
    return _tools.MaxTurnsError;
  }
});
Object.defineProperty(exports, "run", {
  enumerable: true,
  get: function () {
    return _agent.run;
  }
});
Object.defineProperty(exports, "runOnce", {
  enumerable: true,
  get: function () {
    return _agent.runOnce;
  }
});
var _agent = require("./agent");
var _base = require("./base");
var _tools = require("./tools");