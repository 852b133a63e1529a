class BaseAgent {
    model;
    history = [];
    constructor(model) {
        this.model = model;
    }
    async step(messages) {
        this.history.push(messages.length);
        return this.model.chat(messages);
    }
}

class MaxTurnsError extends Error {
    turns;
    constructor(turns) {
        super(`max turns ${turns} reached`);
        this.turns = turns;
    }
}
async function runTool(tools, name, args) {
    const tool = tools[name];
    if (!tool)
        return `unknown tool ${name}`;
    return tool(args);
}

const DEFAULT_MAX_TURNS = 8;
class Agent extends BaseAgent {
    maxTurns = DEFAULT_MAX_TURNS;
    #tools;
    constructor(model, tools) {
        super(model);
        this.#tools = tools;
    }
    static create(model, tools) {
        return new Agent(model, tools);
    }
    async run(input, signal) {
        const messages = [{ role: "user", content: input }];
        for (let turn = 0; turn < this.maxTurns; turn++) {
            if (signal?.aborted)
                throw new Error("aborted");
            const reply = await this.step(messages);
            messages.push(reply);
            if (!reply.toolCalls || reply.toolCalls.length === 0)
                return reply;
            for (const call of reply.toolCalls) {
                messages.push(await runTool(this.#tools, call.name, call.args));
            }
        }
        throw new MaxTurnsError(this.maxTurns);
    }
    async *stream(input) {
        const messages = [{ role: "user", content: input }];
        while (true) {
            const reply = await this.step(messages);
            yield reply;
            if (!reply.toolCalls?.length)
                return;
            for (const call of reply.toolCalls) {
                messages.push(await runTool(this.#tools, call.name, call.args));
            }
        }
    }
}
async function run(model, tools, input) {
    return Agent.create(model, tools).run(input);
}
const runOnce = async (model, tools, input) => Agent.create(model, tools).run(input);

export { Agent, BaseAgent, DEFAULT_MAX_TURNS, MaxTurnsError, run, runOnce };
