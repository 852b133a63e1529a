// The model object is a local of the run method: made by a factory from the options, its
// method called on the local (p.infer(…)), never kept in a field.
import { createProvider } from "./provider";

export class Agent {
  constructor(private options: any, private tools: Record<string, any>) {}

  async run(prompt: string): Promise<string> {
    const p = createProvider(this.options.model);
    const messages: any[] = [{ role: "user", content: prompt }];
    for (let i = 0; i < 8; i++) {
      const reply = await p.infer({ messages });
      messages.push(reply.message);
      if (!reply.toolCalls || reply.toolCalls.length === 0) {
        return reply.content;
      }
      for (const call of reply.toolCalls) {
        const tool = this.tools[call.name];
        messages.push({ role: "tool", content: await tool.invoke(call.args) });
      }
    }
    return "";
  }
}
