// The public entry, a static factory of a subclass in another module: it hands the inherited
// private loop to the event stream's _run and returns the runner while the run goes on
// (openai@7.55.0 lib/ChatCompletionRunner.js:9-17).
import OpenAI from "openai";
import { AbstractRunner, RunnerOptions } from "./abstract";

export class ChatRunner extends AbstractRunner {
  static runTools(client: OpenAI, params: any, tools: Record<string, (args: string) => Promise<string>>, options?: RunnerOptions): ChatRunner {
    const runner = new ChatRunner();
    runner._run(() => runner._runTools(client, params, tools, options));
    return runner;
  }
}
