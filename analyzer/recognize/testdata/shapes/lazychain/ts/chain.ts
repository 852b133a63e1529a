// A response runs the model when it is consumed ([Symbol.asyncIterator]); a chain asks for
// the next one while the last one's tool calls produce results.
export class Response {
  private chunks: string[] = [];
  private calls: any[] = [];
  private done = false;

  constructor(private prompt: any, private model: any, private conversation?: any) {}

  async *[Symbol.asyncIterator]() {
    for await (const chunk of this.model.execute(this.prompt, { response: this, conversation: this.conversation })) {
      this.chunks.push(chunk);
      yield chunk;
    }
    this.done = true;
  }

  private async force() {
    if (!this.done) {
      for await (const _ of this) {
      }
    }
  }

  async toolCalls(): Promise<any[]> {
    await this.force();
    return this.calls;
  }

  async executeToolCalls(): Promise<any[]> {
    const byName = new Map<string, any>(this.prompt.tools.map((t: any) => [t.name, t]));
    const results: any[] = [];
    for (const tc of await this.toolCalls()) {
      const tool = byName.get(tc.name);
      if (!tool) continue;
      results.push({ name: tc.name, output: await tool.implementation(tc.arguments) });
    }
    return results;
  }
}

export class ChainResponse {
  constructor(private prompt: any, private model: any, private chainLimit?: number) {}

  async *responses() {
    let count = 0;
    let current: Response | undefined = new Response(this.prompt, this.model);
    while (current) {
      count++;
      yield current;
      if (this.chainLimit && count >= this.chainLimit) {
        throw new Error("Chain limit reached");
      }
      const toolResults = await current.executeToolCalls();
      if (toolResults.length > 0) {
        current = new Response({ text: "", tools: this.prompt.tools, toolResults }, this.model);
      } else {
        break;
      }
    }
  }
}
