"""A step loop whose step is a helper and whose leave test reads the conversation the helper
appended to; the bound lives in the helper and travels back as an exception."""
from typing import Protocol


class Model(Protocol):
    def query(self, messages: list[dict]) -> dict: ...


class Tool(Protocol):
    name: str

    def __call__(self, **kwargs) -> str: ...


class NonTerminatingException(Exception):
    """Recoverable: the message goes back to the model."""


class FormatError(NonTerminatingException):
    pass


class TerminatingException(Exception):
    """Ends the run; the message is its exit."""


class Submitted(TerminatingException):
    pass


class LimitsExceeded(TerminatingException):
    pass


class Agent:
    def __init__(self, model: Model, tools: list[Tool], *, step_limit: int = 0, cost_limit: float = 3.0):
        self.model = model
        self.tools = {t.name: t for t in tools}
        self.step_limit = step_limit
        self.cost_limit = cost_limit
        self.n_calls = 0
        self.cost = 0.0
        self.messages: list[dict] = []

    def add_message(self, role: str, content: str, **kwargs):
        self.messages.append({"role": role, "content": content, **kwargs})

    def run(self, task: str) -> tuple[str, str]:
        self.messages = []
        self.add_message("system", "You are a helpful assistant.")
        self.add_message("user", task)
        while True:
            try:
                self.step()
            except NonTerminatingException as e:
                self.add_message("user", str(e))
            except TerminatingException as e:
                self.add_message("exit", str(e), extra={"exit_status": type(e).__name__})
            if self.messages[-1]["role"] == "exit":
                return self.messages[-1]["extra"]["exit_status"], self.messages[-1]["content"]

    def step(self) -> dict:
        return self.get_observation(self.query())

    def query(self) -> dict:
        if 0 < self.step_limit <= self.n_calls or 0 < self.cost_limit <= self.cost:
            raise LimitsExceeded()
        self.n_calls += 1
        response = self.model.query(self.messages)
        self.cost += response.get("cost", 0.0)
        self.add_message("assistant", **response)
        return response

    def get_observation(self, response: dict) -> dict:
        actions = self.parse_actions(response)
        outputs = [self.tools[a["name"]](**a["arguments"]) for a in actions]
        for o in outputs:
            if o.startswith("SUBMIT"):
                raise Submitted(o)
            self.add_message("user", o)
        return {"outputs": outputs}

    def parse_actions(self, response: dict) -> list[str]:
        actions = response.get("actions") or []
        if not actions:
            raise FormatError("no action found")
        return actions
