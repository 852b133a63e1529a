// A workflow builder and its engine, no type annotations (rolldown output). Modelled on
// @mastra/core@1.71.0 dist/agent-BOxKOk3n.js: Workflow.dowhile / dountil (5576-5638) only
// record { type: "loop", step, condition } on stepFlow; the engine's executeLoop (1360-1512)
// runs the step and then the condition, do { … } while (…); foreach (1517-1720) runs a step
// per item in a fastq queue.
export class Workflow {
  constructor({ id }) {
    this.id = id;
    this.stepFlow = [];
  }

  then(step) {
    this.stepFlow.push({ type: "step", step });
    return this;
  }

  map(fn) {
    this.stepFlow.push({ type: "step", step: { id: "map", execute: fn } });
    return this;
  }

  foreach(step, opts) {
    this.stepFlow.push({ type: "foreach", step, opts });
    return this;
  }

  dowhile(step, condition) {
    this.stepFlow.push({ type: "loop", step, condition, loopType: "dowhile" });
    return this;
  }

  dountil(step, condition) {
    this.stepFlow.push({ type: "loop", step, condition, loopType: "dountil" });
    return this;
  }

  commit() {
    return this;
  }

  async start({ inputData }) {
    let prev = inputData;
    for (const entry of this.stepFlow) {
      prev = await executeEntry(entry, prev);
    }
    return prev;
  }
}

async function executeEntry(entry, prev) {
  if (entry.type === "loop") return executeLoop(entry, prev);
  if (entry.type === "foreach") return Promise.all(prev.map((item) => entry.step.execute({ inputData: item })));
  return entry.step.execute({ inputData: prev });
}

async function executeLoop(entry, prev) {
  let isTrue = true;
  let result = prev;
  do {
    result = await entry.step.execute({ inputData: result });
    isTrue = await entry.condition({ inputData: result });
  } while (entry.loopType === "dowhile" ? isTrue : !isTrue);
  return result;
}

export function createWorkflow(opts) {
  return new Workflow(opts);
}

export function createStep({ id, execute }) {
  return { id, execute };
}
