// A compiled (tsc) agent whose default tool executor starts one generator per tool call and
// advances them together by racing their next steps until none is pending (while
// (pending.size > 0) … await Promise.race(pending.values())): the tools run side by side,
// though each is started by a per-element callback that only makes a generator. The tool
// looked up by name runs three helpers below the base class's generator, which the sequential
// executor (chosen by a factory) runs too. Modelled on
// @strands-agents/sdk@1.19.0 dist/src/tools/executors/concurrent.js:36-54 (executions =
// toolUseBlocks.map((toolUseBlock) => ({ generator: this.executeTool(…) })), takeNextStep,
// while (pendingSteps.size > 0) { const winner = await Promise.race(pendingSteps.values()) … }),
// sequential.js, executor.js:35 (toolRegistry.get(toolUseBlock.name)), 86, 95, 185
// (_executeToolAttempt → _executeToolWithMiddleware → _executeToolCore → effectiveTool.stream(…)),
// agent.js:71-84 (the executor factory).
export class Agent {
    constructor(model, tools) {
        this.model = model;
        this.tools = new Map(tools.map((t) => [t.name, t]));
        this.executor = makeExecutor(tools.sequential);
        this.messages = [];
    }
    async run(input) {
        this.messages.push({ role: 'user', content: input });
        while (true) {
            const reply = await this.model.generate({ messages: this.messages });
            if (reply.toolCalls.length === 0) {
                return reply;
            }
            const results = [];
            for await (const result of this.executor.execute(this, reply.toolCalls)) {
                results.push(result);
            }
            this.messages.push({ role: 'user', content: results });
        }
    }
}
function makeExecutor(kind) {
    switch (kind) {
        case 'sequential':
            return new SequentialExecutor();
        default:
            return new ConcurrentExecutor();
    }
}
class ToolExecutor {
    async *executeTool(agent, call) {
        const tool = agent.tools.get(call.name);
        return yield* this.attempt(tool, call);
    }
    async *attempt(tool, call) {
        return yield* this.withSpan(tool, call.input);
    }
    async *withSpan(tool, input) {
        return yield* this.core(tool, input);
    }
    async *core(selected, input) {
        return yield* selected.stream(input);
    }
}
export class SequentialExecutor extends ToolExecutor {
    async *execute(agent, calls) {
        for (const call of calls) {
            yield yield* this.executeTool(agent, call);
        }
    }
}
export class ConcurrentExecutor extends ToolExecutor {
    async *execute(agent, calls) {
        const executions = calls.map((call) => ({ call, generator: this.executeTool(agent, call) }));
        const takeNext = (index) => executions[index].generator.next().then((result) => ({ index, result }));
        const pending = new Map();
        for (let index = 0; index < executions.length; index++) {
            pending.set(index, takeNext(index));
        }
        while (pending.size > 0) {
            const winner = await Promise.race(pending.values());
            if (winner.result.done) {
                pending.delete(winner.index);
                yield winner.result.value;
                continue;
            }
            pending.set(winner.index, takeNext(winner.index));
        }
    }
}
