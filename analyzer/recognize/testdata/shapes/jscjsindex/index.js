"use strict";
// The package's index as tsc writes `export { generateText } from "./steps"` (a getter on
// exports) and as hand-written CommonJS re-exports a member (exports.x = m.x).
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    Object.defineProperty(o, k2, { enumerable: true, get: function() { return m[k]; } });
}) : (function(o, m, k, k2) { o[k2] = m[k]; }));
Object.defineProperty(exports, "__esModule", { value: true });
exports.streamText = exports.generateText = void 0;
var steps_1 = require("./steps");
Object.defineProperty(exports, "generateText", { enumerable: true, get: function () { return steps_1.generateText; } });
const stream = require("./stream");
exports.streamText = stream.streamText;
