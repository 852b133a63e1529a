// The tool side of jsstepmerge/flow.js (@google/adk@2.0.0 dist/esm/agents/functions.js:
// 137-145, 188-272, 368-386).
import { getFunctionCalls } from "../events/event.js";

async function handleFunctionCallsAsync({ ctx, functionCallEvent, toolsDict, filters }) {
  const functionCalls = getFunctionCalls(functionCallEvent);
  return await handleFunctionCallList({ ctx, functionCalls, toolsDict, filters });
}
async function handleFunctionCallList({ ctx, functionCalls, toolsDict, filters }) {
  const parts = [];
  const filtered = functionCalls.filter((functionCall) => {
    return !filters || functionCall.id && filters.has(functionCall.id);
  });
  for (const functionCall of filtered) {
    const { tool, toolContext } = getToolAndContext({ ctx, functionCall, toolsDict });
    let functionResponse;
    try {
      functionResponse = await callToolAsync(tool, functionCall.args, toolContext);
    } catch (e) {
      functionResponse = { error: String(e) };
    }
    parts.push({ functionResponse, id: functionCall.id });
  }
  return { parts };
}
function getToolAndContext({ ctx, functionCall, toolsDict }) {
  if (!functionCall.name || !(functionCall.name in toolsDict)) {
    throw new Error(`Function ${functionCall.name} is not found in the toolsDict.`);
  }
  const toolContext = { ctx, functionCallId: functionCall.id };
  const tool = toolsDict[functionCall.name];
  return { tool, toolContext };
}
async function callToolAsync(tool, args, toolContext) {
  return await tool.runAsync({ args, toolContext });
}
export { handleFunctionCallsAsync };
