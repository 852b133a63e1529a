// The model side of the agent: one provider request per step.
export interface Reply {
  text: string;
  toolCalls?: { name: string; args: unknown }[];
}

export interface Model {
  chat(messages: unknown[]): Promise<Reply>;
}

export class BaseAgent {
  protected history: unknown[] = [];
  constructor(protected model: Model) {}

  protected async step(messages: unknown[]): Promise<Reply> {
    this.history.push(messages.length);
    return this.model.chat(messages);
  }
}
