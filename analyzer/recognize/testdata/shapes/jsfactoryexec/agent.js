// A compiled (tsc, ES modules) agent whose tool executor is a pluggable object: the
// constructor keeps what a factory function returns (this._executor =
// resolveExecutor(config.executor)), and the factory constructs one of two executor classes
// or hands back the caller's own instance; no annotation says which. The loop hands the
// reply's tool calls to this._executor.execute(…), and each executor looks every tool up by
// name. Modelled on @strands-agents/sdk@1.19.0 dist/src/agent/agent.js:71-84 (the factory
// resolveToolExecutor), 323 (the field) and 1798 (yield* this._toolExecutor.execute(…)),
// dist/src/tools/executors/{sequential,concurrent}.js.
export class SequentialExecutor {
    async execute(agent, calls) {
        const results = [];
        for (const call of calls) {
            const tool = agent.tools.get(call.name);
            results.push({ id: call.id, output: await tool.invoke(call.input) });
        }
        return results;
    }
}
export class ConcurrentExecutor {
    async execute(agent, calls) {
        return Promise.all(calls.map(async (call) => {
            const tool = agent.tools.get(call.name);
            return { id: call.id, output: await tool.invoke(call.input) };
        }));
    }
}
function resolveExecutor(kind) {
    switch (kind) {
        case 'sequential':
            return new SequentialExecutor();
        case 'concurrent':
        case undefined:
            return new ConcurrentExecutor();
        default:
            if (typeof kind === 'string') {
                throw new Error(`Unknown executor: ${kind}`);
            }
            return kind;
    }
}
export class Agent {
    constructor(config) {
        this.model = config.model;
        this.tools = new Map(config.tools.map((t) => [t.name, t]));
        this.messages = [];
        this._executor = resolveExecutor(config.executor);
    }
    async run(input) {
        this.messages.push({ role: 'user', content: input });
        while (true) {
            const reply = await this.model.complete(this.messages);
            this.messages.push(reply.message);
            if (reply.toolCalls.length === 0) {
                return reply.message;
            }
            const results = await this._executor.execute(this, reply.toolCalls);
            this.messages.push({ role: 'tool', content: results });
        }
    }
}
