"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventStream = void 0;
class EventStream {
    constructor() {
        this.ended = false;
    }
    _run(fn) {
        Promise.resolve().then(async () => {
            try {
                await fn();
            }
            finally {
                this.ended = true;
            }
        });
    }
}
exports.EventStream = EventStream;
