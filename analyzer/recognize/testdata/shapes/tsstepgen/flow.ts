// A step loop of async generators (TypeScript): each pass drains one step's events with
// for await and leaves on a predicate of the last event it yielded; the step relays the
// model's stream (two generators deep, each item handed on whole) and hands each reply to a
// postprocessing generator, whose function calls reach the tool lookup by name through a
// helper.

export class Event {
  constructor(public content: { parts: { call?: { name: string; args: unknown; id: string } }[] }) {}

  functionCalls() {
    return this.content.parts.filter((p) => p.call !== undefined).map((p) => p.call);
  }

  isFinalResponse() {
    return this.functionCalls().length === 0;
  }
}

export class Flow {
  constructor(private llm: { generateContent(request: unknown): AsyncIterable<{ content: Event["content"] }> }, private tools: Record<string, { runAsync(args: unknown, ctx: unknown): Promise<unknown> }>) {}

  async *runAsync(ctx: { aborted: boolean; events: Event[] }) {
    while (true) {
      if (ctx.aborted) {
        break;
      }
      let lastEvent: Event | undefined = undefined;
      for await (const event of this.runOneStep(ctx)) {
        lastEvent = event;
        yield event;
      }
      if (!lastEvent || lastEvent.isFinalResponse()) {
        break;
      }
    }
  }

  private async *runOneStep(ctx: { events: Event[] }) {
    const request = { contents: [...ctx.events], tools: this.tools };
    for await (const response of this.callLlm(request)) {
      for await (const event of this.postprocess(ctx, response)) {
        yield event;
      }
    }
  }

  private async *callLlm(request: unknown) {
    for await (const response of this.llm.generateContent(request)) {
      yield response;
    }
  }

  private async *postprocess(ctx: { events: Event[] }, response: { content: Event["content"] }) {
    const event = new Event(response.content);
    ctx.events.push(event);
    yield event;
    const calls = event.functionCalls();
    if (calls.length > 0) {
      const reply = await handleFunctionCalls(ctx, calls, this.tools);
      ctx.events.push(reply);
      yield reply;
    }
  }
}

async function handleFunctionCalls(ctx: unknown, calls: { name: string; args: unknown; id: string }[], tools: Record<string, { runAsync(args: unknown, ctx: unknown): Promise<unknown> }>) {
  const parts = [];
  for (const call of calls) {
    const tool = tools[call.name];
    parts.push({ response: await tool.runAsync(call.args, ctx), id: call.id });
  }
  return new Event({ parts });
}
