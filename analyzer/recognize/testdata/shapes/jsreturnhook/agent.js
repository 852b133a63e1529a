// The entry returns what a check run after the turn loop returns (guide rails that look at
// the final output and hand it back): a JS return hands back that call's value, its failure
// would be a throw of its own, so the return completes the run. Modelled on @aigne/core@1.72.0
// lib/esm/agents/agent.js (tsc ES module; onAgentResponseStreamEnd of utils/stream-utils.js
// is outside the mapped files): Agent.invoke (369-397: return await
// this.checkResponseByGuideRails(input, options.streaming ? response : await
// agentProcessResultToObject(response), opts), 392) and checkResponseByGuideRails (595-615).
import { onAgentResponseStreamEnd } from "../utils/stream-utils.js";

export class Agent {
  constructor(options) {
    this.model = options.model;
    this.tools = options.tools;
    this.guideRails = options.guideRails;
  }
  async invoke(input, options = {}) {
    try {
      const output = await this.process(input, options);
      return await this.checkResponseByGuideRails(input, output, options);
    } catch (error) {
      throw (await this.processAgentError(input, error, options)).error ?? error;
    }
  }
  async process(input, options) {
    const messages = [{ role: "user", content: input }];
    for (;;) {
      const reply = await this.model.complete({ messages, tools: this.tools });
      if (!reply.toolCalls?.length) {
        return { text: reply.text };
      }
      for (const call of reply.toolCalls) {
        const tool = this.tools.find((t) => t.name === call.name);
        messages.push({ role: "tool", content: await tool.run(call.arguments) });
      }
    }
  }
  async checkResponseByGuideRails(input, output, options) {
    if (!this.guideRails?.length) return output;
    const result = await output;
    if (result instanceof ReadableStream) {
      return onAgentResponseStreamEnd(result, {
        onResult: async (final) => {
          const error = await this.runGuideRails(input, final, options);
          if (error) {
            return { text: error.reason, $status: "GuideRailError" };
          }
        }
      });
    }
    const error = await this.runGuideRails(input, result, options);
    if (!error) return output;
    return { text: error.reason, $status: "GuideRailError" };
  }
  async runGuideRails(input, output, options) {
    const results = await Promise.all(this.guideRails.map((rail) => rail.check({ input, output })));
    return results.find((r) => r.abort);
  }
  async processAgentError(input, error, options) {
    return { error };
  }
}
