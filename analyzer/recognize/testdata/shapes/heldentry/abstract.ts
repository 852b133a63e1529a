// The tool loop of the runner, an underscore-private method of the base class
// (openai@7.55.0 lib/AbstractChatCompletionRunner.js:209-396): a counted for over a
// destructured default, the tool calls looked up by name, an abort check per step.
import OpenAI from "openai";
import { EventStream } from "./events";

const DEFAULT_MAX_CHAT_COMPLETIONS = 10;

export interface RunnerOptions {
  maxChatCompletions?: number;
  signal?: AbortSignal;
}

export class AbstractRunner extends EventStream {
  messages: any[] = [];
  controller = new AbortController();

  protected async _createChatCompletion(client: OpenAI, params: any): Promise<any> {
    return await client.chat.completions.create({ ...params, messages: this.messages, stream: false });
  }

  protected async _runTools(client: OpenAI, params: any, tools: Record<string, (args: string) => Promise<string>>, options?: RunnerOptions) {
    const { maxChatCompletions = DEFAULT_MAX_CHAT_COMPLETIONS } = options || {};
    for (let i = 0; i < maxChatCompletions; ++i) {
      const chatCompletion = await this._createChatCompletion(client, params);
      const message = chatCompletion.choices[0]?.message;
      if (!message) {
        throw new Error("missing message in ChatCompletion response");
      }
      this.messages.push(message);
      if (!message.tool_calls?.length) {
        return;
      }
      for (const call of message.tool_calls) {
        const fn = tools[call.function.name];
        const content = await fn(call.function.arguments);
        this.messages.push({ role: "tool", tool_call_id: call.id, content });
      }
      if (this.controller.signal.aborted) {
        throw new Error("Request was aborted.");
      }
    }
  }
}
