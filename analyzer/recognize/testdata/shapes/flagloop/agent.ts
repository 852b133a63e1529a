// The loop ends through a flag: the branch with no tool calls clears the boolean the loop's
// condition tests, beside the iteration cap (while (more && i < max)); no break, no return.
export class Agent {
  constructor(private llm: any, private tools: Map<string, any>, private maxIterations: number = 10) {}

  async chat(prompt: string): Promise<string> {
    const messages: any[] = [{ role: "user", content: prompt }];
    let more = true;
    let i = 0;
    let answer = "";
    while (more && i < this.maxIterations) {
      i++;
      const reply = await this.llm.chat(messages);
      messages.push(reply.message);
      if (reply.toolCalls && reply.toolCalls.length > 0) {
        for (const call of reply.toolCalls) {
          const tool = this.tools.get(call.name);
          const out = await tool.execute(call.arguments);
          messages.push({ role: "tool", id: call.id, content: out });
        }
      } else {
        answer = reply.content;
        more = false;
      }
    }
    return answer;
  }
}
