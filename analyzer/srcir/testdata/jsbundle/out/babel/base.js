"use strict";

Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.BaseAgent = void 0;
// The model side of the agent: one provider request per step.

class BaseAgent {
  history = [];
  constructor(model) {
    this.model = model;
  }
  async step(messages) {
    this.history.push(messages.length);
    return this.model.chat(messages);
  }
}
exports.BaseAgent = BaseAgent;