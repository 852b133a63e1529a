// A next-step state machine (the OpenAI Agents SDK's shape): a helper resolves the turn and
// the loop leaves when the next step is the final output.
export async function runSteps(model: any, tools: any, input: unknown[], maxTurns = 5) {
  for (let i = 0; i < maxTurns; i++) {
    const response = await model.getResponse(input);
    const turn = await resolveTurn(response, tools, input);
    if (turn.nextStep.type === 'next_step_final_output') {
      return turn.output;
    }
  }
  return undefined;
}

async function resolveTurn(response: any, tools: any, input: unknown[]) {
  for (const call of response.toolCalls) {
    input.push(await tools[call.name](call.args));
  }
  const type = response.toolCalls.length ? 'next_step_run_again' : 'next_step_final_output';
  return { nextStep: { type }, output: response.text };
}
