# The bound's outcome is recorded in the loop's else branch, reached only when the loop ends
# without a break: the stop reason is stored under its key in the state container.
class Agent:
    def __init__(self, llm, tools, max_steps: int = 8):
        self.llm = llm
        self.tools = tools
        self.max_steps = max_steps

    def run(self, state):
        step = 0
        while step < self.max_steps:
            step += 1
            reply = self.llm.chat(state["messages"])
            state["messages"].append(reply.message)
            if not reply.tool_calls:
                state.set("stop_reason", "completed")
                break
            for call in reply.tool_calls:
                tool = self.tools[call.name]
                state["messages"].append(tool.invoke(call.arguments))
        else:
            state.set("stop_reason", "max_steps")
        return state
