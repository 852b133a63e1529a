// A compiled (tsc) agent whose tool, looked up by name, is handed down through helpers and a
// middleware chain before it runs: executeTool picks the registered tool or a hook's
// replacement (const tool = this.override ?? registered), attempt puts it in a context
// object handed to an external middleware registry together with the terminal callback,
// whose parameter receives that context (ctx.tool), and which reaches the instance through
// const executor = this; core finally runs selected.stream(input). The model is asked by a
// helper that reads the history itself, so nothing the loop passes carries the results
// back. Modelled on @strands-agents/sdk@1.19.0 dist/src/tools/executors/executor.js:35
// (toolRegistry.get), 57 (effectiveTool = selectedTool ?? …), 86 (_executeToolAttempt),
// 136-151 (context, const executor = this, middlewareRegistry.invoke(…, async function*
// (middlewareContext) { … executor._executeToolCore(options, middlewareContext.tool, …) })),
// 185 (effectiveTool.stream(toolContext)); dist/src/agent/agent.js:1099-1124.
export class Agent {
    constructor(model, tools, middleware) {
        this.model = model;
        this.tools = new Map(tools.map((t) => [t.name, t]));
        this.middleware = middleware;
        this.messages = [];
    }
    async run(input) {
        this.messages.push({ role: 'user', content: input });
        while (true) {
            const reply = await this.invokeModel();
            if (reply.stopReason !== 'toolUse') {
                return reply;
            }
            const results = [];
            for (const call of reply.toolCalls) {
                results.push(await this.executeTool(call));
            }
            this.appendMessage(reply.message);
            this.appendMessage({ role: 'user', content: results });
        }
    }
    appendMessage(message) {
        this.messages.push(message);
    }
    async invokeModel() {
        const request = { messages: this.messages.map((m) => ({ ...m })) };
        return this.model.generate(request);
    }
    async executeTool(call) {
        const registered = this.tools.get(call.name);
        const tool = this.override ?? registered;
        const out = await this.attempt(tool, call);
        return { id: call.id, content: out };
    }
    async attempt(tool, call) {
        const context = { tool, input: call.input };
        // eslint-disable-next-line @typescript-eslint/no-this-alias
        const executor = this;
        const out = await this.middleware.invoke('executeTool', context, async function (ctx) {
            return { result: await executor.core(ctx.tool, ctx.input) };
        });
        return out.result;
    }
    async core(selected, input) {
        return selected.stream(input);
    }
}
