// TypeScript turn loops whose default bounds come from the environment, with fallbacks.
export const DEFAULT_MAX_TURNS = Number(process.env.AGENT_MAX_TURNS ?? "10");
export const DEFAULT_MAX_STEPS = Number(process.env.AGENT_MAX_STEPS || 25);

type Reply = { calls: { name: string; args: unknown }[] };

export async function runTurns(model: { complete(m: unknown[]): Promise<Reply> },
    tools: Record<string, (a: unknown) => Promise<string>>, maxTurns = DEFAULT_MAX_TURNS): Promise<Reply> {
    const messages: unknown[] = [];
    for (let turn = 0; turn < maxTurns; turn++) {
        const reply = await model.complete(messages);
        if (reply.calls.length === 0) {
            return reply;
        }
        for (const call of reply.calls) {
            messages.push(await tools[call.name](call.args));
        }
    }
    throw new Error("max turns");
}

export async function runSteps(model: { complete(m: unknown[]): Promise<Reply> },
    tools: Record<string, (a: unknown) => Promise<string>>, maxSteps = DEFAULT_MAX_STEPS): Promise<Reply> {
    const messages: unknown[] = [];
    for (let step = 0; step < maxSteps; step++) {
        const reply = await model.complete(messages);
        if (reply.calls.length === 0) {
            return reply;
        }
        for (const call of reply.calls) {
            messages.push(await tools[call.name](call.args));
        }
    }
    throw new Error("max steps");
}
