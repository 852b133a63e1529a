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
        return Agent;
    },
    DEFAULT_MAX_TURNS: function() {
        return DEFAULT_MAX_TURNS;
    },
    run: function() {
        return run;
    },
    runOnce: function() {
        return runOnce;
    }
});
const _base = require("./base");
const _tools = /*#__PURE__*/ _interop_require_wildcard(require("./tools"));
function _check_private_redeclaration(obj, privateCollection) {
    if (privateCollection.has(obj)) {
        throw new TypeError("Cannot initialize the same private elements twice on an object");
    }
}
function _class_apply_descriptor_get(receiver, descriptor) {
    if (descriptor.get) {
        return descriptor.get.call(receiver);
    }
    return descriptor.value;
}
function _class_apply_descriptor_set(receiver, descriptor, value) {
    if (descriptor.set) {
        descriptor.set.call(receiver, value);
    } else {
        if (!descriptor.writable) {
            throw new TypeError("attempted to set read only private field");
        }
        descriptor.value = value;
    }
}
function _class_extract_field_descriptor(receiver, privateMap, action) {
    if (!privateMap.has(receiver)) {
        throw new TypeError("attempted to " + action + " private field on non-instance");
    }
    return privateMap.get(receiver);
}
function _class_private_field_get(receiver, privateMap) {
    var descriptor = _class_extract_field_descriptor(receiver, privateMap, "get");
    return _class_apply_descriptor_get(receiver, descriptor);
}
function _class_private_field_init(obj, privateMap, value) {
    _check_private_redeclaration(obj, privateMap);
    privateMap.set(obj, value);
}
function _class_private_field_set(receiver, privateMap, value) {
    var descriptor = _class_extract_field_descriptor(receiver, privateMap, "set");
    _class_apply_descriptor_set(receiver, descriptor, value);
    return value;
}
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
function _getRequireWildcardCache(nodeInterop) {
    if (typeof WeakMap !== "function") return null;
    var cacheBabelInterop = new WeakMap();
    var cacheNodeInterop = new WeakMap();
    return (_getRequireWildcardCache = function(nodeInterop) {
        return nodeInterop ? cacheNodeInterop : cacheBabelInterop;
    })(nodeInterop);
}
function _interop_require_wildcard(obj, nodeInterop) {
    if (!nodeInterop && obj && obj.__esModule) {
        return obj;
    }
    if (obj === null || typeof obj !== "object" && typeof obj !== "function") {
        return {
            default: obj
        };
    }
    var cache = _getRequireWildcardCache(nodeInterop);
    if (cache && cache.has(obj)) {
        return cache.get(obj);
    }
    var newObj = {
        __proto__: null
    };
    var hasPropertyDescriptor = Object.defineProperty && Object.getOwnPropertyDescriptor;
    for(var key in obj){
        if (key !== "default" && Object.prototype.hasOwnProperty.call(obj, key)) {
            var desc = hasPropertyDescriptor ? Object.getOwnPropertyDescriptor(obj, key) : null;
            if (desc && (desc.get || desc.set)) {
                Object.defineProperty(newObj, key, desc);
            } else {
                newObj[key] = obj[key];
            }
        }
    }
    newObj.default = obj;
    if (cache) {
        cache.set(obj, newObj);
    }
    return newObj;
}
const DEFAULT_MAX_TURNS = 8;
var _tools1 = /*#__PURE__*/ new WeakMap();
class Agent extends _base.BaseAgent {
    static create(model, tools) {
        return new Agent(model, tools);
    }
    async run(input, signal) {
        const messages = [
            {
                role: "user",
                content: input
            }
        ];
        for(let turn = 0; turn < this.maxTurns; turn++){
            if (signal === null || signal === void 0 ? void 0 : signal.aborted) throw new Error("aborted");
            const reply = await this.step(messages);
            messages.push(reply);
            if (!reply.toolCalls || reply.toolCalls.length === 0) return reply;
            for (const call of reply.toolCalls){
                messages.push(await (0, _tools.default)(_class_private_field_get(this, _tools1), call.name, call.args));
            }
        }
        throw new _tools.MaxTurnsError(this.maxTurns);
    }
    async *stream(input) {
        const messages = [
            {
                role: "user",
                content: input
            }
        ];
        while(true){
            var _reply_toolCalls;
            const reply = await this.step(messages);
            yield reply;
            if (!((_reply_toolCalls = reply.toolCalls) === null || _reply_toolCalls === void 0 ? void 0 : _reply_toolCalls.length)) return;
            for (const call of reply.toolCalls){
                messages.push(await (0, _tools.default)(_class_private_field_get(this, _tools1), call.name, call.args));
            }
        }
    }
    constructor(model, tools){
        super(model), _define_property(this, "maxTurns", DEFAULT_MAX_TURNS), _class_private_field_init(this, _tools1, {
            writable: true,
            value: void 0
        });
        _class_private_field_set(this, _tools1, tools);
    }
}
async function run(model, tools, input) {
    return Agent.create(model, tools).run(input);
}
const runOnce = async (model, tools, input)=>Agent.create(model, tools).run(input);
