// A tool runner written as an async-iterable class with native private members: the loop
// is the class's async iterator ([Symbol.asyncIterator]), one step per item it yields; the
// reply is kept in the private field #reply, the tools run through the private method
// #runTool; runUntilDone drains the instance itself (for await (const _ of this)).
export interface Client {
  create(req: { messages: unknown[] }): Promise<{ content: { type: string; name: string; input: unknown }[] }>;
}

export class ToolRunner {
  #client: Client;
  #tools: Map<string, { run(input: unknown): Promise<string> }>;
  #reply: { content: { type: string; name: string; input: unknown }[] } | undefined;
  #messages: unknown[] = [];

  constructor(client: Client, tools: { name: string; run(input: unknown): Promise<string> }[]) {
    this.#client = client;
    this.#tools = new Map(tools.map((t) => [t.name, t]));
  }

  async *[Symbol.asyncIterator]() {
    while (true) {
      this.#reply = await this.#client.create({ messages: this.#messages });
      yield this.#reply;
      const uses = this.#reply.content.filter((b) => b.type === "tool_use");
      if (uses.length === 0) {
        return;
      }
      const results = await Promise.all(uses.map((u) => this.#runTool(u)));
      this.#messages.push(...results);
    }
  }

  async #runTool(use: { name: string; input: unknown }) {
    const tool = this.#tools.get(use.name);
    return { type: "tool_result", content: await tool!.run(use.input) };
  }

  async runUntilDone() {
    for await (const _ of this) {
      // each step's reply
    }
    return this.#reply;
  }
}
