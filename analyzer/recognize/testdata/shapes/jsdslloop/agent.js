// An agent whose turn loop is a workflow-DSL loop (@mastra/core@1.71.0 dist/agent-BOxKOk3n.js):
// createAgenticLoopWorkflow declares createWorkflow({…}).dowhile(agenticExecutionWorkflow,
// async ({ inputData }) => {…}).commit() (30522-30710); the body is another workflow,
// .then(llmExecutionStep).map(toolCalls).foreach(toolCallStep, …) (30435-30519), whose steps are
// createStep({ execute }) objects calling model.doGenerate (26123) and tool.execute (30385);
// the condition evaluates the stop conditions (stepCountIs(maxSteps), else stepCountIs(5):
// 31219-31225) and returns stepResult.isContinued (30625-30708).
import { createStep, createWorkflow } from "./workflow.js";

function stepCountIs(stepCount) {
  return ({ steps }) => steps.length === stepCount;
}

function createLLMExecutionStep({ model, messages, abortSignal }) {
  return createStep({
    id: "llm-execution",
    execute: async ({ inputData }) => {
      const response = await model.doGenerate({ prompt: messages, abortSignal });
      if (abortSignal?.aborted) {
        return { ...inputData, stepResult: { reason: "abort", isContinued: false } };
      }
      messages.push(response.message);
      const toolCalls = response.toolCalls ?? [];
      return { ...inputData, toolCalls, stepResult: { reason: response.finishReason, isContinued: toolCalls.length > 0 } };
    },
  });
}

function createToolCallStep({ tools, messages }) {
  return createStep({
    id: "tool-call",
    execute: async ({ inputData }) => {
      const tool = tools[inputData.toolName];
      const result = await tool.execute(inputData.args);
      messages.push({ role: "tool", content: result });
      return result;
    },
  });
}

function createAgenticExecutionWorkflow(params) {
  const llmExecutionStep = createLLMExecutionStep(params);
  const toolCallStep = createToolCallStep(params);
  return createWorkflow({ id: "agentic-execution" })
    .then(llmExecutionStep)
    .map(async ({ inputData }) => inputData.toolCalls)
    .foreach(toolCallStep, { concurrency: 10 })
    .commit();
}

function createAgenticLoopWorkflow(params) {
  const accumulatedSteps = [];
  const agenticExecutionWorkflow = createAgenticExecutionWorkflow(params);
  return createWorkflow({ id: "agentic-loop" })
    .dowhile(agenticExecutionWorkflow, async ({ inputData }) => {
      accumulatedSteps.push(inputData);
      let hasFinishedSteps = false;
      if (params.stopWhen && inputData.stepResult?.isContinued) {
        const hasStopped = params.stopWhen({ steps: accumulatedSteps });
        hasFinishedSteps = hasFinishedSteps || hasStopped;
      }
      if (hasFinishedSteps) inputData.stepResult.isContinued = false;
      return inputData.stepResult?.isContinued ?? false;
    })
    .commit();
}

export class Agent {
  constructor({ model, tools }) {
    this.model = model;
    this.tools = tools;
  }

  async generate(messages, { maxSteps, stopWhen, abortSignal } = {}) {
    const stopWhenToUse = maxSteps ? stepCountIs(maxSteps) : stopWhen ?? stepCountIs(5);
    const workflow = createAgenticLoopWorkflow({ model: this.model, tools: this.tools, messages, stopWhen: stopWhenToUse, abortSignal });
    const result = await workflow.start({ inputData: { messages } });
    if (result.stepResult?.reason === "error") {
      throw new Error("agent failed");
    }
    return result;
  }
}
