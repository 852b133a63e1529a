// A streamed model reply collected chunk by chunk into an assembler (DeepSeek Harness's
// shape): the assembled message is what decides.
export class StreamAgent {
  prepared?: { stream(input: unknown[]): AsyncIterable<unknown> };
  constructor(private llm: any, private tools: Record<string, (input: unknown) => Promise<unknown>>) {}

  async run(input: unknown[], signal: AbortSignal) {
    while (true) {
      signal.throwIfAborted();
      const end = await this.step(input, signal);
      if (end) return end;
    }
  }

  private async step(input: unknown[], signal: AbortSignal) {
    const assembler = new Assembler();
    const stream = this.prepared?.stream(input) ?? this.llm.stream(input, signal);
    for await (const chunk of stream) {
      assembler.push(chunk);
    }
    const message = createMessage({ content: assembler.finish().content, at: Date.now() });
    const toolCalls = message.content.filter((b: any) => b.type === 'tool-call');
    if (toolCalls.length === 0) return { kind: 'completed' };
    for (const call of toolCalls) {
      input.push(await this.tools[call.name](call.input));
    }
    return null;
  }
}

class Assembler {
  parts: any[] = [];
  push(chunk: unknown) {
    this.parts.push(chunk);
  }
  finish() {
    return { content: this.parts };
  }
}

function createMessage(m: { content: any[]; at: number }) {
  return { ...m, role: 'assistant' };
}
