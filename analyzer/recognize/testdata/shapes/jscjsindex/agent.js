"use strict";
// jscjsindex: tsc's CommonJS output of a TypeScript package whose agent imports the step loop
// through the package's index (`import { generateText } from "./index"` compiled to
// require("./index") and a (0, index_1.generateText)(…) call), and whose index re-exports it
// the ways tsc and hand-written CommonJS do (index.js). Modelled on the CommonJS build of
// @voltagent/core@2.10.0 over ai@6.0.325 (dist/index.js:31569 → 4858).
Object.defineProperty(exports, "__esModule", { value: true });
exports.Agent = void 0;
const index_1 = require("./index");
class Agent {
    constructor(options) {
        this.model = options.model;
        this.tools = options.tools;
    }
    async generateText(input) {
        const messages = [{ role: "user", content: input }];
        const result = await (0, index_1.generateText)({ model: this.model, tools: this.tools, messages });
        return result.text;
    }
    async streamText(input) {
        const messages = [{ role: "user", content: input }];
        return (0, index_1.streamText)({ model: this.model, tools: this.tools, messages });
    }
}
exports.Agent = Agent;
