# ReAct text loop ending on a flag of the parsed reply: while True, the reply text is parsed
# into a step (final or an action), the action's tool is a plain function looked up by name
# in a module-level table, the observation appended to the prompt.
import re


def search(query):
    return "result for " + query


def calculate(expr):
    return str(len(expr))


TOOLS = {"search": search, "calculate": calculate}


class Step:
    def __init__(self, final, answer=None, action=None, action_input=None):
        self.final = final
        self.answer = answer
        self.action = action
        self.action_input = action_input


def parse_reply(text):
    m = re.search(r"Action: (\w+)\[(.*)\]", text)
    if m is None:
        return Step(True, answer=text)
    return Step(False, action=m.group(1), action_input=m.group(2))


class TextAgent:
    def __init__(self, client, max_iterations=10):
        self.client = client
        self.max_iterations = max_iterations

    def run(self, question):
        prompt = "Question: " + question
        i = 0
        while True:
            if i >= self.max_iterations:
                return None
            i += 1
            reply = self.client.complete(prompt)
            parsed = parse_reply(reply)
            if parsed.final:
                return parsed.answer
            observation = TOOLS[parsed.action](parsed.action_input)
            prompt += "\n" + reply + "\nObservation: " + observation
