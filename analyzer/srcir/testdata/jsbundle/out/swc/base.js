// The model side of the agent: one provider request per step.
"use strict";
Object.defineProperty(exports, "__esModule", {
    value: true
});
Object.defineProperty(exports, "BaseAgent", {
    enumerable: true,
    get: function() {
        return BaseAgent;
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
class BaseAgent {
    async step(messages) {
        this.history.push(messages.length);
        return this.model.chat(messages);
    }
    constructor(model){
        _define_property(this, "model", void 0);
        _define_property(this, "history", void 0);
        this.model = model;
        this.history = [];
    }
}
