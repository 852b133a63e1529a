import { EventStream } from "./event-stream";
import { DEFAULT_MAX_CHAT_COMPLETIONS } from "./constants";

export class AbstractRunner<T> extends EventStream {
  messages: any[] = [];

  protected async _createChatCompletion(client: any, params: any, opts?: any): Promise<any> {
    return client.chat.completions.create(params, opts);
  }

  protected _addMessage(m: any): void {
    this.messages.push(m);
  }

  protected async _runTools(client: any, params: any, options?: any): Promise<void> {
    const { maxChatCompletions = DEFAULT_MAX_CHAT_COMPLETIONS } = options || {};
    const functionsByName: Record<string, any> = {};
    for (const f of params.tools) {
      functionsByName[f.function.name] = f.function;
    }
    for (let i = 0; i < maxChatCompletions; ++i) {
      const chatCompletion = await this._createChatCompletion(client, { ...params, messages: [...this.messages] }, options);
      const message = chatCompletion.choices[0]?.message;
      if (!message) {
        throw new Error("missing message");
      }
      this._addMessage(message);
      if (!message.tool_calls?.length) {
        return;
      }
      for (const tc of message.tool_calls) {
        const fn = functionsByName[tc.function.name];
        if (!fn) {
          this._addMessage({ role: "tool", tool_call_id: tc.id, content: "no such function" });
          continue;
        }
        const content = await fn.function(JSON.parse(tc.function.arguments), this);
        this._addMessage({ role: "tool", tool_call_id: tc.id, content: String(content) });
      }
      if (options?.signal?.aborted) {
        throw new Error("aborted");
      }
    }
  }
}
