// The loop of RequirementStyleAgent, in a runner class that keeps the configuration object it
// was constructed with in a field.
import { AgentError } from "./base.js";

export class Runner {
    constructor(llm, runConfig, tools) {
        this.llm = llm;
        this.runConfig = runConfig;
        this.tools = tools;
        this.state = { answer: null, iteration: 0, messages: [] };
    }
    incrementIteration() {
        this.state.iteration++;
        if (this.runConfig.maxIterations && this.state.iteration > this.runConfig.maxIterations) {
            throw new AgentError(`not resolved in ${this.state.iteration} iterations`);
        }
    }
    async run() {
        while (!this.state.answer) {
            this.incrementIteration();
            const response = await this.llm.create({ messages: this.state.messages, tools: this.tools });
            const calls = response.getToolCalls();
            if (calls.length === 0) {
                this.state.answer = response.text;
                return this.state;
            }
            const results = await Promise.all(calls.map((call) => this.tools.find((t) => t.name === call.toolName).run(call.input)));
            this.state.messages.push(...results);
        }
        return this.state;
    }
}
