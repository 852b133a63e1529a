// Agents whose public run is a base class's template method: run enters a run context with a
// callback that calls this._run, which each agent class implements with a loop of its own, and
// decorates the run it hands back (.middleware(...)).
import { RunContext } from "./context.js";

export class AgentError extends Error {}

export class BaseAgent {
    isRunning = false;
    middlewares = [];
    run(input, options) {
        if (this.isRunning) {
            throw new AgentError("Agent is already running!");
        }
        return RunContext.enter(this, { signal: options?.signal }, async (context) => {
            this.isRunning = true;
            try {
                return await this._run(input, options, context);
            } finally {
                this.isRunning = false;
            }
        }).middleware(...this.middlewares);
    }
}
