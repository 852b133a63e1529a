# The loop ends through a flag in Python: the branch with no tool calls clears the boolean
# the loop's condition tests beside the iteration cap.
class Agent:
    def __init__(self, llm, tools, max_iterations: int = 10):
        self.llm = llm
        self.tools = tools
        self.max_iterations = max_iterations

    def chat(self, prompt):
        messages = [{"role": "user", "content": prompt}]
        more = True
        i = 0
        answer = ""
        while more and i < self.max_iterations:
            i += 1
            reply = self.llm.chat(messages)
            messages.append(reply.message)
            if not reply.tool_calls:
                answer = reply.content
                more = False
            else:
                for call in reply.tool_calls:
                    tool = self.tools[call.name]
                    messages.append({"role": "tool", "content": tool.run(**call.arguments)})
        return answer
