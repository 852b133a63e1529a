# The final answer is a tool: the loop goes on while the result a nested handler sets is
# unset; the tool to run is the first whose name is the call's (next over a generator).
class Tool:
    def __init__(self, name, fn):
        self.name = name
        self.fn = fn


class Agent:
    def __init__(self, llm, tools, max_iterations: int = 10):
        self.llm = llm
        self.tools = tools
        self.max_iterations = max_iterations

    def run(self, task):
        result = None
        messages = [task]

        def final_answer(answer):
            nonlocal result
            result = answer
            return "sent"

        tools = self.tools + [Tool("final_answer", final_answer)]
        steps = 0
        while result is None:
            steps += 1
            if steps > self.max_iterations:
                raise RuntimeError("too many iterations")
            reply = self.llm.chat(messages, tools=tools)
            for call in reply.tool_calls:
                tool = next(t for t in tools if t.name == call.name)
                messages.append(tool.fn(**call.arguments))
        return result
