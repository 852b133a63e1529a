// An agent that keeps the compiled graph in a private field set in its constructor from the
// builder's compile() (langchain@1.5.14 dist/agents/ReactAgent.js:84, 281: this.#graph =
// allNodeWorkflows.compile({…}); invoke at 620 returns this.#graph.invoke(…)). Before: the
// field's class was unknown (no annotation), so invoke reached nothing.
import { StateGraph } from "./graph.js";

export class ReactAgent {
  #graph;

  constructor(options) {
    const workflow = new StateGraph(options.state);
    this.#graph = workflow.compile({ checkpointer: options.checkpointer });
  }

  async invoke(state, config) {
    return this.#graph.invoke(state, config);
  }
}
