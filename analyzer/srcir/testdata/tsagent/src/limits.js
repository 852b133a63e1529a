"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_LIMIT = void 0;
exports.DEFAULT_LIMIT = 7;
