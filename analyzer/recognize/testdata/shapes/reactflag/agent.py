# ReAct text loop tested by a flag of the parsed reply: the reply is text parsed into an
# action or a finish, the loop goes on while the parsed answer is not final.
class Action:
    def __init__(self, tool, tool_input):
        self.tool = tool
        self.tool_input = tool_input
        self.final = False


class Finish:
    def __init__(self, output):
        self.output = output
        self.final = True


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
        while answer is None or not answer.final:
            if steps >= self.max_iterations:
                return "stopped"
            steps += 1
            text = self.llm.generate(question + scratchpad)
            answer = parse(text)
            if not answer.final:
                tool = self.tools[answer.tool]
                observation = tool.run(answer.tool_input)
                scratchpad += f"\n{text}\nObservation: {observation}"
        return answer.output
