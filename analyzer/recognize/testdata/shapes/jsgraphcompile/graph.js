// A graph builder whose compile() hands back the runnable graph through helpers, no type
// annotations (compiled JavaScript): compile returns this._compileResolved(…), which returns
// compiled.validate() of a local constructed instance, which returns this. Modelled on
// @langchain/langgraph@1.7.3 dist/graph/state.js:433-505 (StateGraph.compile /
// _compileResolved) and dist/pregel/index.js:333-348 (Pregel.validate returns this).
export class Pregel {
  validate() {
    return this;
  }

  async invoke(input, config) {
    const messages = [...input.messages];
    for (let step = 0; step < config.recursionLimit; step++) {
      const reply = await config.model.invoke(messages);
      if (reply.tool_calls.length === 0) {
        return reply;
      }
      for (const call of reply.tool_calls) {
        messages.push(await config.tools[call.name].invoke(call.args));
      }
    }
    throw new Error("recursion limit reached");
  }
}

export class CompiledStateGraph extends Pregel {}

export class StateGraph {
  compile({ checkpointer } = {}) {
    if (this.closed) {
      throw new Error("already compiled");
    }
    return this._compileResolved({ checkpointer });
  }

  _compileResolved({ checkpointer }) {
    const compiled = new CompiledStateGraph({ builder: this, checkpointer });
    return compiled.validate();
  }
}
