// jscalleropt (agent.js): a framework that hands the whole tool loop to its dependency and
// passes the bound as an option, reduced from @voltagent/core@2.10.0 dist/index.js (a tsup
// CommonJS bundle): the Agent constructor's `const defaultMaxSteps = this.workspace ? 100 : 5;
// this.maxSteps = options.maxSteps ?? defaultMaxSteps` (31337-31338); Agent.generateText's
// closure `(0, import_ai7.generateText)({ …, stopWhen: options?.stopWhen ?? this.stopWhen ??
// (0, import_ai7.stepCountIs)(maxSteps) })` (31569-31584) with maxSteps destructured from
// `await this.prepareExecution(...)` (31462), whose `options?.maxSteps ??
// this.calculateMaxSteps()` (33508) asks the sub-agent manager, which hands the agent's own
// back when it has one (calculateMaxSteps(agentMaxSteps), 30352-30357; 36665-36667). For
// Agent.generateText the loop's bound starts at what it passes (5 when nothing is configured),
// not at the dependency's own stepCountIs(1); for the dependency's own entry it stays.
var import_ai = require("./ai.js");

class SubAgentManager {
  constructor(subAgentConfigs) {
    this.subAgentConfigs = subAgentConfigs;
  }
  calculateMaxSteps(agentMaxSteps) {
    if (agentMaxSteps !== void 0) {
      return agentMaxSteps;
    }
    return this.subAgentConfigs.length > 0 ? 10 * this.subAgentConfigs.length : 10;
  }
}

class Agent {
  constructor(options) {
    this.workspace = options.workspace;
    this.model = options.model;
    this.tools = options.tools;
    const defaultMaxSteps = this.workspace ? 100 : 5;
    this.maxSteps = options.maxSteps ?? defaultMaxSteps;
    this.stopWhen = options.stopWhen;
    this.subAgentManager = new SubAgentManager(options.subAgents ?? []);
  }
  async generateText(input, options) {
    const run = async () => {
      const { messages, maxSteps } = await this.prepareExecution(input, options);
      const response = await (0, import_ai.generateText)({
        model: this.model,
        messages,
        tools: this.tools,
        tracer: options?.tracer,
        stopWhen: options?.stopWhen ?? this.stopWhen ?? (0, import_ai.stepCountIs)(maxSteps),
        abortSignal: options?.abortSignal,
      });
      return response;
    };
    return await run();
  }
  async prepareExecution(input, options) {
    const messages = [{ role: "user", content: input }];
    const maxSteps = options?.maxSteps ?? this.calculateMaxSteps();
    return { messages, maxSteps };
  }
  calculateMaxSteps() {
    return this.subAgentManager.calculateMaxSteps(this.maxSteps);
  }
}

module.exports = { Agent };
