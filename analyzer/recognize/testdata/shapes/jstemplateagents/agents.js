import { BaseAgent, AgentError } from "./base.js";
import { Runner } from "./runner.js";
import { DynamicTool } from "./tools.js";

// The runner class is a class-level field, constructed with a configuration object literal.
export class RequirementStyleAgent extends BaseAgent {
    runner = Runner;
    constructor(input) {
        super();
        this.input = input;
    }
    async _run(input, options = {}, run) {
        const execution = {
            maxRetriesPerStep: 3,
            maxIterations: 20,
            ...this.input.execution,
        };
        const runner = new this.runner(this.input.llm, execution, this.input.tools);
        const finalState = await runner.run();
        if (!finalState.answer) {
            throw new Error("Agent did not produce a final answer");
        }
        return { result: finalState.answer };
    }
}

// The loop goes on until the final-answer tool's handler records the result; its bound falls
// back to Infinity when the configuration object does not set it.
export class FinalToolAgent extends BaseAgent {
    constructor(input) {
        super();
        this.input = input;
    }
    async _run(input, options = {}, run) {
        const execution = { totalMaxRetries: 20, ...this.input.execution };
        const state = { messages: [], result: undefined, iteration: 0 };
        const finalAnswer = new DynamicTool({
            name: "final_answer",
            handler: async (args) => {
                state.result = args.response;
                return "sent";
            },
        });
        const tools = [...this.input.tools, finalAnswer];
        while (!state.result) {
            state.iteration++;
            if (state.iteration > (execution.totalMaxRetries ?? Infinity)) {
                throw new AgentError(`not resolved in ${state.iteration} iterations`);
            }
            const response = await this.input.llm.create({ messages: state.messages, tools });
            for (const call of response.getToolCalls()) {
                const tool = tools.find((t) => t.name === call.toolName);
                const output = await tool.run(call.input);
                state.messages.push({ role: "tool", content: output });
            }
        }
        return { result: state.result };
    }
}
