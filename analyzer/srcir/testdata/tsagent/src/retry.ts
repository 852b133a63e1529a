// A provider retry inside the step (ask: its loop ends by returning and goes round only
// from the catch), the turn loop in run, and a driver that starts the run from a closure
// handed to a promise it does not await (wake).
interface Reply { calls: { name: string; args: unknown }[] }
interface Llm { complete(messages: unknown[]): Promise<Reply> }
interface Tool { invoke(args: unknown): Promise<unknown> }

export class Agent {
  private queue: Promise<void> = Promise.resolve()
  constructor(private llm: Llm, private tools: Record<string, Tool>) {}

  private async ask(messages: unknown[]): Promise<Reply> {
    let attempt = 0
    while (true) {
      try {
        return await this.llm.complete(messages)
      } catch (err) {
        if (attempt++ > 3) throw err
        continue
      }
    }
  }

  async run(messages: unknown[], signal: AbortSignal): Promise<Reply> {
    while (true) {
      signal.throwIfAborted()
      const reply = await this.ask(messages)
      if (reply.calls.length === 0) return reply
      for (const call of reply.calls) {
        messages.push(await this.tools[call.name].invoke(call.args))
      }
    }
  }

  wake(): void {
    this.queue = this.queue.then(() => this.run([], new AbortController().signal).then(() => undefined))
  }
}
