# ReAct text loop whose observations are kept as step records a helper formats into the
# scratchpad the next prompt is built from (prompt <- scratchpad <- format_scratchpad(steps)),
# the tool looked up through a registry by the parsed step's tool field.
import re

_FINAL = re.compile(r"Final Answer:(.*)")


class ParsedStep:
    def __init__(self, thought="", tool=None, action_input=None, final_answer=None):
        self.thought = thought
        self.tool = tool
        self.action_input = action_input
        self.final_answer = final_answer

    @property
    def is_final(self):
        return self.final_answer is not None


def parse_step(text):
    final = _FINAL.search(text)
    if final:
        return ParsedStep(final_answer=final.group(1))
    name, _, arg = text.partition(":")
    return ParsedStep(tool=name, action_input=arg)


class Step:
    def __init__(self, thought, observation):
        self.thought = thought
        self.observation = observation


def format_scratchpad(steps):
    return "\n".join(s.thought + s.observation for s in steps)


class Agent:
    def __init__(self, llm, tools, max_steps=8):
        self.llm = llm
        self.tools = tools
        self.max_steps = max_steps

    def run(self, question):
        steps = []
        for _ in range(self.max_steps):
            scratchpad = format_scratchpad(steps)
            prompt = f"{question}\n\n{scratchpad}"
            raw = self.llm.generate(prompt)
            parsed = parse_step(raw)
            if parsed.is_final:
                return parsed.final_answer
            tool = self.tools.get(parsed.tool)
            observation = tool.run(parsed.action_input)
            steps.append(Step(thought=parsed.thought, observation=observation))
        return None
