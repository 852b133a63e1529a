"use strict";
// Modelled on openai@7.55.0 lib/EventStream.js 1077-1102 (_run): the executor is handed to a
// promise chain written one call a line inside a timer.
Object.defineProperty(exports, "__esModule", { value: true });
exports.EventStream = void 0;
class EventStream {
    constructor() {
        this.controller = new AbortController();
    }
    _run(executor) {
        setTimeout(() => {
            let failed = false;
            Promise.resolve()
                .then(executor)
                .catch((error) => {
                failed = true;
                this._handleError(error);
            })
                .then(() => {
                if (failed) {
                    return;
                }
                this._emit('end');
            });
        }, 0);
    }
    _handleError(error) {
        this.error = error;
    }
    _emit(event) {
        this.last = event;
    }
}
exports.EventStream = EventStream;
