"""Step loops whose shared state is an object handed to the step, not the receiver."""

TOOLS = {}


class State:
    def __init__(self, prompt):
        self.messages = [{"role": "user", "content": prompt}]
        self.finished = False


def step(llm, state):
    reply = llm.chat(state.messages)
    state.messages.append(reply)
    calls = reply.get("tool_calls") or []
    if not calls:
        state.finished = True
    for call in calls:
        out = TOOLS[call["name"]](**call["arguments"])
        state.messages.append({"role": "tool", "content": out})


def respond(llm, interpreter):
    while True:
        step(llm, state=interpreter)
        if interpreter.messages[-1]["role"] == "assistant":
            break
    return interpreter.messages[-1]["content"]


def run(llm, prompt):
    st = State(prompt)
    while not st.finished:
        step(llm, st)
    return st.messages[-1]["content"]

