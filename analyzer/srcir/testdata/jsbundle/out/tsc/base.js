"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.BaseAgent = void 0;
const tslib_1 = require("tslib");
class BaseAgent {
    constructor(model) {
        this.model = model;
        this.history = [];
    }
    step(messages) {
        return tslib_1.__awaiter(this, void 0, void 0, function* () {
            this.history.push(messages.length);
            return this.model.chat(messages);
        });
    }
}
exports.BaseAgent = BaseAgent;
