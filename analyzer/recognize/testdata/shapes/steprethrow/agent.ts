// A turn loop whose try is inside the loop (@huggingface/mcp-client@0.2.3
// dist/src/index.js:380-391): the step's AbortError ends the run cancelled (catch (err) { if
// (err instanceof Error && err.message === "AbortError") return; throw err; }), every other
// error is rethrown and ends it failed.
export interface ChatClient {
  chatCompletionStream(req: { messages: Message[]; tools: ToolSpec[] }): AsyncIterable<Chunk>;
}

export interface ToolSpec {
  name: string;
  run(args: string): Promise<string>;
}

export interface Message {
  role: string;
  content: string;
  name?: string;
}

interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

interface Chunk {
  delta: { content?: string; tool_calls?: ToolCall[] };
}

const MAX_NUM_TURNS = 20;

export class Agent {
  messages: Message[] = [];

  constructor(private client: ChatClient, private tools: ToolSpec[]) {}

  async callTool(tc: ToolCall): Promise<Message> {
    const tool = this.tools.find((t) => t.name === tc.name);
    if (!tool) {
      return { role: "tool", name: tc.name, content: `unknown tool ${tc.name}` };
    }
    const out = await tool.run(tc.arguments);
    return { role: "tool", name: tc.name, content: out };
  }

  async *processSingleTurnWithTools(opts: { abortSignal?: AbortSignal }) {
    const stream = this.client.chatCompletionStream({ messages: this.messages, tools: this.tools });
    let content = "";
    const calls: ToolCall[] = [];
    for await (const chunk of stream) {
      if (opts.abortSignal?.aborted) {
        throw new Error("AbortError");
      }
      if (chunk.delta.content) {
        content += chunk.delta.content;
        yield { role: "assistant", content: chunk.delta.content };
      }
      for (const tc of chunk.delta.tool_calls ?? []) {
        calls.push(tc);
      }
    }
    this.messages.push({ role: "assistant", content });
    for (const call of calls) {
      const r = await this.callTool(call);
      this.messages.push(r);
      yield r;
    }
  }

  async *run(input: string, abortSignal?: AbortSignal) {
    let numTurns = 0;
    this.messages.push({ role: "user", content: input });
    while (true) {
      try {
        yield* this.processSingleTurnWithTools({ abortSignal });
      } catch (err) {
        if (err instanceof Error && err.message === "AbortError") {
          return;
        }
        throw err;
      }
      numTurns++;
      const last = this.messages.at(-1)!;
      if (last.role !== "tool" && numTurns > MAX_NUM_TURNS) {
        return;
      }
    }
  }
}
