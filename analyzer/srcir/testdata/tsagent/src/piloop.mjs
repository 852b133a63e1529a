// Pi-style inner loop: a flag set when the model asked for tools keeps it going.
export async function runLoop(context, config, signal, streamFn) {
    let hasMoreToolCalls = true;
    while (hasMoreToolCalls) {
        const message = await streamFn(context, config, signal);
        if (message.stopReason === "aborted") {
            return;
        }
        const toolCalls = message.content.filter((c) => c.type === "toolCall");
        hasMoreToolCalls = false;
        if (toolCalls.length > 0) {
            const batch = await executeToolCalls(context, message, signal);
            hasMoreToolCalls = !batch.terminate;
            for (const result of batch.messages) {
                context.messages.push(result);
            }
        }
    }
}
async function executeToolCalls(context, assistantMessage, signal) {
    const calls = assistantMessage.content.filter((c) => c.type === "toolCall");
    const messages = await Promise.all(calls.map(async (call) => {
        const tool = context.tools.find((t) => t.name === call.name);
        return tool.execute(call.id, call.arguments, signal);
    }));
    return { messages, terminate: false };
}
