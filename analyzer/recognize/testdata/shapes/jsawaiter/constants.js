"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_MAX_CHAT_COMPLETIONS = void 0;
exports.DEFAULT_MAX_CHAT_COMPLETIONS = 10;
