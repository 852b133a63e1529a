// A chat recursion whose tool loop renames each element before dispatching it by name
// (multi-llm-ts@5.1.1 dist/index.js:1516-1591, openai_default.chat: const functionToolCall =
// tool_call, the TypeScript cast compiled away; the tool run by an async generator of the
// engine, callTool(ctx, functionToolCall.function.name, args)). The deeper call's completion,
// decorated with this step's tool calls (completion.toolCalls = [...]), is handed back: its
// outcome is the deeper call's (dist/index.js:1575-1586).
export class Engine {
  constructor(client, plugins) {
    this.client = client;
    this.plugins = plugins;
  }

  async *callTool(context, name, args) {
    const plugin = this.plugins.find((p) => p.name === name);
    if (!plugin) {
      yield { type: "result", result: { error: `tool ${name} not found` } };
      return;
    }
    yield { type: "result", result: await plugin.execute(context, args) };
  }

  async chat(model, thread, opts) {
    const toolCallInfo = [];
    const response = await this.client.chat.completions.create({ model: model.id, messages: thread });
    const choice = response.choices?.[0];
    if (choice.message.tool_calls && choice?.finish_reason === "tool_calls") {
      thread.push(choice.message);
      for (const tool_call of choice.message.tool_calls) {
        if (!("function" in tool_call)) {
          continue;
        }
        const functionToolCall = tool_call;
        const args = JSON.parse(functionToolCall.function.arguments);
        let lastUpdate = void 0;
        for await (const update of this.callTool({ model: model.id, abortSignal: opts?.abortSignal }, functionToolCall.function.name, args)) {
          if (update.type === "result") {
            lastUpdate = update;
          }
        }
        thread.push({ role: "tool", tool_call_id: tool_call.id, content: JSON.stringify(lastUpdate?.result) });
      }
      const completion = await this.chat(model, thread, opts);
      completion.toolCalls = [
        ...toolCallInfo,
        ...completion.toolCalls ?? []
      ];
      if (opts?.usage && response.usage && completion.usage) {
        this.accumulateUsage(completion.usage, response.usage);
      }
      return completion;
    }
    return { type: "text", content: choice.message.content || "" };
  }
}
