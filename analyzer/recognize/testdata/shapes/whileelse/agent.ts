// The same in TypeScript: the bound's branch stores the stop reason under its key.
export class Agent {
  constructor(private llm: any, private tools: Map<string, any>, private maxSteps: number = 8) {}

  async run(state: Map<string, any>): Promise<Map<string, any>> {
    const messages: any[] = state.get("messages");
    for (let step = 0; ; step++) {
      if (step >= this.maxSteps) {
        state.set("stopReason", "max_steps");
        break;
      }
      const reply = await this.llm.chat(messages);
      messages.push(reply.message);
      if (!reply.toolCalls?.length) {
        break;
      }
      for (const call of reply.toolCalls) {
        const tool = this.tools.get(call.name);
        messages.push(await tool.invoke(call.arguments));
      }
    }
    return state;
  }
}
