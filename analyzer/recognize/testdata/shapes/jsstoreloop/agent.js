// jsstoreloop: a function-calling loop as @aigne/core@1.72.0 compiles it
// (lib/esm/agents/ai-agent.js:355-506, AIAgent._process). for (;;) asks the model as
// another agent (this.invokeChildAgent(model, { messages: await session.getMessages() })),
// drains its stream into an accumulator object with a helper of a module outside the set
// (mergeAgentResponseChunk(modelOutput, value), lib/esm/utils/stream-utils.js), looks the tools
// up by name in a Map and runs them in a queue; the tool messages go back into the session
// store through its own method (session.appendCurrentMessages(...)), which the next model
// call reads back. The body ends with return: the loop repeats only through the continue of
// the tools branch, after a tool error captured by the queue is rethrown (if (error) throw
// error): work the step left, not a retry.
import { mergeAgentResponseChunk } from "../utils/stream-utils.js";
import fastq from "fastq";

export class AIAgent {
    process(input, options) {
        return this._process(input, options);
    }
    async *_process(input, options) {
        const model = this.model || options.model;
        if (!model)
            throw new Error("model is required to run AIAgent");
        const { toolAgents, session, userMessage } = await options.build(input);
        const toolsMap = new Map(toolAgents?.map((i) => [i.name, i]));
        await session.startMessage(input, userMessage, options);
        for (;;) {
            const modelOutput = {};
            let stream = await this.invokeChildAgent(model, { messages: await session.getMessages() }, { ...options, streaming: true });
            for await (const value of stream) {
                mergeAgentResponseChunk(modelOutput, value);
            }
            const { toolCalls, text } = modelOutput;
            const toolCallsWithTools = toolCalls?.map((call) => {
                const tool = toolsMap.get(call.function.name);
                if (!tool)
                    throw new Error(`Tool not found: ${call.function.name}`);
                return { ...call, tool };
            });
            if (toolCallsWithTools?.length) {
                const toolCallMessage = { role: "agent", toolCalls };
                const executedToolCalls = [];
                let error;
                const queue = fastq.promise(async ({ tool, call }) => {
                    try {
                        const output = await this.invokeSkill(tool, { ...input, ...call.function.arguments }, options);
                        executedToolCalls.push({ call, tool, output });
                    }
                    catch (e) {
                        error = e;
                        queue.killAndDrain();
                    }
                }, this.toolCallsConcurrency || 1);
                for (const call of toolCallsWithTools) {
                    queue.push({ tool: call.tool, call });
                }
                await queue.drained();
                if (error)
                    throw error;
                const toolResultMessages = [];
                if (executedToolCalls.length) {
                    for (const { call, output } of executedToolCalls) {
                        toolResultMessages.push({ role: "tool", toolCallId: call.id, content: [{ type: "text", text: JSON.stringify(output) }] });
                    }
                    await session.appendCurrentMessages([toolCallMessage, ...toolResultMessages], options);
                    continue;
                }
            }
            await session.endMessage({ text }, undefined, options);
            return;
        }
    }

    async invokeSkill(skill, input, options) {
        return await this.invokeChildAgent(skill, input, { ...options, streaming: false });
    }

    invokeChildAgent = ((agent, input, options) => {
        return options.context.invoke(agent, input, { ...options, caller: this });
    });
}
