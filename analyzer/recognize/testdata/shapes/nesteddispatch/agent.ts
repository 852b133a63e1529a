// Two-level tool dispatch: the reply is a list of messages; a helper skips those whose type
// is not a tool call and walks each one's own list of tool calls, looking the tool up by name.
export class Agent {
  constructor(private model: any, private tools: Map<string, any>, private maxIter: number = 0) {}

  async run(input: string): Promise<any[]> {
    const history: any[] = [{ role: "user", content: input }];
    for (let i = 0; this.maxIter === 0 || i < this.maxIter; i++) {
      const output = await this.model.infer({ messages: history });
      history.push(...output.messages);
      const results = await this.invokeTools(output.messages);
      if (results.length === 0) {
        return history;
      }
      history.push(...results);
    }
    return history;
  }

  private async invokeTools(messages: any[]): Promise<any[]> {
    const results: any[] = [];
    for (const msg of messages) {
      if (msg.type !== "tool_call") {
        continue;
      }
      for (const call of msg.tools) {
        const tool = this.tools.get(call.name);
        results.push({ role: "tool", id: call.id, content: await tool.handler(call.input) });
      }
    }
    return results;
  }
}
