"use strict";
// Compiled-CommonJS shapes: the bound is a field another helper increments
// (begin: state._turn++) compared in the helper the loop calls (prepare), its default the
// constructor parameter's, given by the caller from an exported constant of another module;
// the signal is checked after each step's tools, and on a resumed branch that goes on.
Object.defineProperty(exports, "__esModule", { value: true });
exports.runTurns = runTurns;
const limits_1 = require("./limits");
class LimitExceededError extends Error {
}
class State {
    _turn = 0;
    _limit;
    constructor(limit) {
        this._limit = limit;
    }
}
function begin(state) {
    state._turn++;
}
function prepare(state) {
    begin(state);
    if (state._turn > state._limit) {
        throw new LimitExceededError(`too many turns (${state._limit})`);
    }
}
async function runTurns(model, tools, options) {
    const state = new State(options.limit === undefined ? limits_1.DEFAULT_LIMIT : options.limit);
    const messages = [];
    while (true) {
        if (options.resumed) {
            options.signal?.throwIfAborted();
            options.resumed = false;
            continue;
        }
        prepare(state);
        const reply = await model.complete(messages);
        if (reply.calls.length === 0) {
            return reply;
        }
        for (const call of reply.calls) {
            messages.push(await tools[call.name](call.args));
        }
        options.signal?.throwIfAborted();
    }
}
