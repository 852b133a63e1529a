// The same as a do-while: the flag is the reply's having tool calls.
class Looper {
  constructor(llm, tools, maxTurns = 5) {
    this.llm = llm;
    this.tools = tools;
    this.maxTurns = maxTurns;
  }

  async run(prompt) {
    const messages = [{ role: "user", content: prompt }];
    let more = false;
    let turn = 0;
    let text = "";
    do {
      turn++;
      const reply = await this.llm.complete(messages);
      messages.push(reply.message);
      if (!reply.toolCalls || reply.toolCalls.length === 0) {
        text = reply.content;
        more = false;
      } else {
        for (const call of reply.toolCalls) {
          const tool = this.tools[call.name];
          messages.push({ role: "tool", content: await tool.run(call.arguments) });
        }
        more = true;
      }
    } while (more && turn < this.maxTurns);
    return text;
  }
}
module.exports = { Looper };
