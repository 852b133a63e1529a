// Step loops whose shared state is an object handed to the step, not the receiver.

const TOOLS: Record<string, (args: any) => Promise<string>> = {};

interface State {
  messages: any[];
  done: boolean;
}

async function step(llm: any, state: State): Promise<void> {
  const reply = await llm.chat(state.messages);
  state.messages.push(reply);
  const calls = reply.toolCalls ?? [];
  if (calls.length === 0) {
    state.done = true;
  }
  for (const call of calls) {
    const out = await TOOLS[call.name](call.arguments);
    state.messages.push({ role: "tool", content: out });
  }
}

export async function respond(llm: any, session: State): Promise<string> {
  while (true) {
    await step(llm, session);
    const last = session.messages.at(-1);
    if (last.role !== "tool") {
      return last.content;
    }
  }
}

export async function run(llm: any, prompt: string): Promise<string> {
  const st: State = { messages: [{ role: "user", content: prompt }], done: false };
  while (!st.done) {
    await step(llm, st);
  }
  return st.messages.at(-1).content;
}
