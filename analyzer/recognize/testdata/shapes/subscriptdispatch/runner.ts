export class Runner {
  constructor(private client: any, private tools: any[]) {}
  async run(messages: any[], maxTurns = 8): Promise<string> {
    const byName: Record<string, any> = {};
    for (const t of this.tools) byName[t.name] = t;
    for (let i = 0; i < maxTurns; i++) {
      const reply = await this.client.chat.completions.create({ model: "m", messages });
      const message = reply.choices[0].message;
      if (!message.tool_calls?.length) return message.content;
      for (const tc of message.tool_calls) {
        const out = await byName[tc.function.name]["function"](tc.function.arguments);
        messages.push({ role: "tool", content: String(out) });
      }
    }
    throw new Error("too many turns");
  }
}
