// A runner that hands the run to a private loop and returns the loop's result held in a local
// (const result = await this.#loop(...); return result), and a loop whose turn ends in a
// switch over the next step: a pending approval pauses the run (waiting), it does not end it.
export class Delegator {
  traceId = '';
  constructor(private model: any, private tools: Record<string, (a: unknown) => Promise<unknown>>) {}

  async run(input: string, opts: { maxTurns?: number; signal?: AbortSignal } = {}) {
    // a nested run (this agent used as a tool) joins the caller's trace (parent); a top-level
    // one mints its trace id
    const parent = getCurrentTraceContext();
    this.traceId = parent?.traceId ?? `trace_${crypto.randomUUID()}`;
    const result = await this.#loop(input, opts.maxTurns ?? 10, opts.signal);
    return result;
  }

  // the streamed form: the loop's promise is chained, not awaited — the result comes back
  // while the run goes on (started)
  async stream(input: string) {
    const result = new StreamResult();
    const done = this.#loop(input, 10).then(() => result.end(), (e) => result.fail(e));
    result.attach(done);
    return result;
  }

  async #loop(input: string, maxTurns: number, signal?: AbortSignal) {
    let turn = 0;
    while (true) {
      signal?.throwIfAborted();
      if (++turn > maxTurns) throw new MaxTurnsError('max turns');
      const reply = await this.model.getResponse(input);
      const next = await this.resolve(reply);
      switch (next.type) {
        case 'final_output':
          return { output: next.output };
        case 'interruption':
          return { pending: next.approvals };
        case 'run_again':
          break;
      }
    }
  }

  private async resolve(reply: any) {
    const calls = reply.toolCalls ?? [];
    if (calls.length === 0) return { type: 'final_output', output: reply.text };
    for (const c of calls) {
      if (c.needsApproval) return { type: 'interruption', approvals: [c] };
      await this.tools[c.name](c.args);
    }
    return { type: 'run_again' };
  }
}

class MaxTurnsError extends Error {}

let current: { traceId: string } | undefined;
function getCurrentTraceContext() {
  return current;
}

class StreamResult {
  attach(p: Promise<void>) {}
  end() {}
  fail(e: unknown) {}
}
