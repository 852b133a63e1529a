export class FunctionAgent {
  constructor(private llm: any, private functions: Record<string, (args: string) => Promise<string>>) {}

  async run(messages: any[], maxRounds = 6): Promise<string | undefined> {
    for (let round = 0; round < maxRounds; round++) {
      const completion = await this.llm.complete({ messages, functions: Object.keys(this.functions) });
      const reply = completion.choices[0].message;
      messages.push(reply);
      if (!reply.function_call) {
        return reply.content;
      }
      const { name, arguments: args } = reply.function_call;
      const fn = this.functions[name];
      const out = fn ? await fn(args) : `no function ${name}`;
      messages.push({ role: "function", name, content: out });
    }
    return undefined;
  }
}
