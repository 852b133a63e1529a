"use strict";
// Modelled on @huggingface/mcp-client@0.2.3 dist/src/index.js 182-290 (McpClient
// processSingleTurnWithTools) and 367-411 (Agent.run): the step generator is handed the
// loop's message list and pushes the reply and the tool results into that parameter; the loop
// decides on the list's last message, the bound tested only after a turn without tools.
var MAX_NUM_TURNS = 10;
var McpClient = class {
  constructor(client) {
    this.client = client;
    this.clients = new Map();
    this.availableTools = [];
  }
  async *processSingleTurnWithTools(messages, opts = {}) {
    const stream = this.client.chatCompletionStream(
      {
        messages,
        tools: this.availableTools,
        tool_choice: "auto"
      },
      {
        signal: opts.abortSignal
      }
    );
    const message = { role: "unknown", content: "" };
    const finalToolCalls = {};
    for await (const chunk of stream) {
      if (opts.abortSignal?.aborted) {
        throw new Error("AbortError");
      }
      const delta = chunk.choices[0]?.delta;
      if (!delta) {
        continue;
      }
      if (delta.content) {
        message.content += delta.content;
      }
      for (const toolCall of delta.tool_calls ?? []) {
        finalToolCalls[toolCall.index] = toolCall;
      }
      yield chunk;
    }
    const finalToolCallValues = Object.values(finalToolCalls);
    messages.push({ role: "assistant", content: message.content, tool_calls: finalToolCallValues });
    for (const toolCall of finalToolCallValues) {
      const toolName = toolCall.function.name ?? "unknown";
      const toolMessage = { role: "tool", tool_call_id: toolCall.id, content: "", name: toolName };
      const client = this.clients.get(toolName);
      if (client) {
        try {
          const result = await client.callTool({ name: toolName, arguments: JSON.parse(toolCall.function.arguments), signal: opts.abortSignal });
          toolMessage.content = String(result);
        } catch (error) {
          toolMessage.content = `Error: MCP tool call failed with error message: ${error}`;
        }
      } else {
        toolMessage.content = `Error: No session found for tool: ${toolName}`;
      }
      messages.push(toolMessage);
      yield toolMessage;
    }
  }
};
var Agent = class extends McpClient {
  async *run(input, opts = {}) {
    const messages = [{ role: "user", content: input }];
    let numOfTurns = 0;
    let nextTurnShouldCallTools = true;
    while (true) {
      try {
        yield* this.processSingleTurnWithTools(messages, {
          abortSignal: opts.abortSignal
        });
      } catch (err) {
        if (err instanceof Error && err.message === "AbortError") {
          return;
        }
        throw err;
      }
      numOfTurns++;
      const currentLast = messages.at(-1);
      if (currentLast.role !== "tool" && numOfTurns > MAX_NUM_TURNS) {
        return;
      }
      if (currentLast.role !== "tool" && nextTurnShouldCallTools) {
        return;
      }
      nextTurnShouldCallTools = currentLast.role !== "tool";
    }
  }
};
module.exports = { Agent, McpClient };
