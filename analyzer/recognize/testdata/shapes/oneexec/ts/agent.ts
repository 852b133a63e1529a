// One executor for every tool call: no lookup by name.
export class Agent {
  constructor(private client: any, private executor: any, private maxTurns: number = 8) {}

  async run(input: string): Promise<string> {
    const conversation: any[] = [{ role: "user", content: input }];
    for (let turn = 0; turn < this.maxTurns; turn++) {
      const msg = await this.client.complete(conversation);
      conversation.push(msg);
      if (!msg.tool_calls || msg.tool_calls.length === 0) {
        return msg.content;
      }
      const results: any[] = [];
      for (const call of msg.tool_calls) {
        results.push(await this.executor.run(call));
      }
      conversation.push(...results);
    }
    throw new Error("too many turns");
  }
}
