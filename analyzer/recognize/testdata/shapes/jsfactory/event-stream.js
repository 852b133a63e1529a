"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventStream = void 0;
class EventStream {
    constructor() {
        this.ended = false;
        this.controller = new AbortController();
    }
    _run(executor) {
        setTimeout(() => {
            this._startPromise = executor();
            this._startPromise.then(() => { this.ended = true; }).catch((e) => { this.ended = true; });
        }, 0);
    }
}
exports.EventStream = EventStream;
