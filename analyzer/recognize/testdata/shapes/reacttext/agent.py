# ReAct text loop: the reply is text parsed into an action or a finish, one action per reply,
# no collection of tool calls; the loop goes on while the parsed answer is no Finish.
class Action:
    def __init__(self, tool, tool_input):
        self.tool = tool
        self.tool_input = tool_input


class Finish:
    def __init__(self, output):
        self.output = output


def parse(text):
    if "Final Answer:" in text:
        return Finish(text.split("Final Answer:")[-1].strip())
    name, _, arg = text.partition(":")
    return Action(name.strip(), arg.strip())


class Agent:
    def __init__(self, llm, tools, max_iterations: int = 15):
        self.llm = llm
        self.tools = {t.name: t for t in tools}
        self.max_iterations = max_iterations

    def run(self, question):
        scratchpad = ""
        answer = None
        steps = 0
        while not isinstance(answer, Finish):
            if steps >= self.max_iterations:
                return "stopped"
            steps += 1
            text = self.llm.generate(question + scratchpad)
            answer = parse(text)
            if isinstance(answer, Action):
                tool = self.tools[answer.tool]
                observation = tool.run(answer.tool_input)
                scratchpad += f"\n{text}\nObservation: {observation}"
        return answer.output
