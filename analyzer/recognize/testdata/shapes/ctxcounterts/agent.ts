// The same in TypeScript: state.iteration counted by the step helper.
interface State {
  messages: any[];
  iteration: number;
}

export class Agent {
  constructor(private llm: any, private tools: Map<string, any>, private maxSteps: number) {}

  async run(messages: any[]): Promise<string | undefined> {
    const state: State = { messages, iteration: 0 };
    while (state.iteration < this.maxSteps) {
      const reply = await this.llm.chat(state.messages);
      state.messages.push(reply.message);
      if (!reply.toolCalls?.length) {
        return reply.content;
      }
      await this.step(state, reply);
    }
    return undefined;
  }

  private async step(state: State, reply: any): Promise<void> {
    for (const call of reply.toolCalls) {
      const tool = this.tools.get(call.name);
      state.messages.push(await tool.run(call.args));
    }
    state.iteration += 1;
  }
}
