"""A step loop whose leave test is a predicate method reading the history the step wrote."""


class Runner:
    def __init__(self, llm, tools, max_turns: int = 10):
        self.llm = llm
        self.tools = {t.name: t for t in tools}
        self.max_turns = max_turns
        self.history: list[dict] = []

    def run(self, prompt: str) -> str:
        self.history = [{"role": "user", "content": prompt}]
        turns = 0
        while not self.finished():
            self.step()
            turns += 1
            if turns >= self.max_turns:
                return "max_turns"
        return self.history[-1]["content"]

    def finished(self) -> bool:
        last = self.history[-1]
        return last["role"] == "assistant" and not last.get("tool_calls")

    def step(self) -> None:
        reply = self.llm.chat(self.history)
        self.history.append(reply)
        for call in reply.get("tool_calls") or []:
            out = self.tools[call["name"]](**call["arguments"])
            self.history.append({"role": "tool", "content": out})


class Session:
    """The same with the predicate's answer kept in a local (done, why = self.done())."""

    def __init__(self, llm, tools):
        self.llm = llm
        self.tools = {t.name: t for t in tools}
        self.history: list[dict] = []

    def run(self, prompt: str) -> str:
        self.history.append({"role": "user", "content": prompt})
        while True:
            self.step()
            done, why = self.done()
            if done:
                return why

    def done(self) -> tuple[bool, str]:
        if self.history[-1]["role"] == "assistant" and not self.history[-1].get("tool_calls"):
            return True, "answered"
        return False, ""

    def step(self) -> None:
        reply = self.llm.chat(self.history)
        self.history.append(reply)
        for call in reply.get("tool_calls") or []:
            out = self.tools[call["name"]](**call["arguments"])
            self.history.append({"role": "tool", "content": out})
