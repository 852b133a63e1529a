// A TypeScript turn loop that leaves on the stop reason of the model's message: the returns
// under tests of that value say how the run ended.
export interface Message { stopReason: string; calls: { name: string; args: unknown }[] }

export async function runLoop(model: { complete(m: unknown[]): Promise<Message> },
    tools: Record<string, (a: unknown) => Promise<string>>): Promise<Message[]> {
    const messages: unknown[] = [];
    const out: Message[] = [];
    while (true) {
        const message = await model.complete(messages);
        out.push(message);
        if (message.stopReason === "error" || message.stopReason === "aborted") {
            return out;
        }
        switch (message.stopReason) {
            case "length":
            case "max_tokens":
                throw new Error("truncated");
            case "toolUse":
                break;
        }
        if (message.calls.length === 0) {
            return out;
        }
        for (const call of message.calls) {
            messages.push(await tools[call.name](call.args));
        }
    }
}
