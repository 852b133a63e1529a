# Excerpt of mini-swe-agent==2.4.6 minisweagent/agents/default.py:19-157 and
# minisweagent/exceptions.py (trimmed: templates, saving, serialization): the step is a helper,
# one environment executes every action of the model's message, its outputs go back into the
# shared message list through a formatting helper of the model, and the loop leaves on the
# role of the last message; the limits are raised in the query helper, a format-error counter
# is reset after every clean step.
from typing import Protocol


class InterruptAgentFlow(Exception):
    def __init__(self, *messages: dict):
        self.messages = messages
        super().__init__()


class LimitsExceeded(InterruptAgentFlow):
    pass


class FormatError(InterruptAgentFlow):
    pass


class Model(Protocol):
    def query(self, messages: list[dict]) -> dict: ...

    def format_observation_messages(self, message: dict, outputs: list[dict]) -> list[dict]: ...


class Environment(Protocol):
    def execute(self, action: dict) -> dict: ...


class AgentConfig:
    step_limit: int = 0
    cost_limit: float = 3.0
    max_consecutive_format_errors: int = 3


class DefaultAgent:
    def __init__(self, model: Model, env: Environment, *, config_class: type = AgentConfig, **kwargs):
        self.config = config_class(**kwargs)
        self.messages: list[dict] = []
        self.model = model
        self.env = env
        self.cost = 0.0
        self.n_calls = 0
        self.n_consecutive_format_errors = 0

    def add_messages(self, *messages: dict) -> list[dict]:
        self.messages.extend(messages)
        return list(messages)

    def run(self, task: str = "") -> dict:
        self.messages = []
        self.add_messages({"role": "user", "content": task})
        while True:
            try:
                self.step()
                self.n_consecutive_format_errors = 0
            except FormatError as e:
                self.n_consecutive_format_errors += 1
                if 0 < self.config.max_consecutive_format_errors <= self.n_consecutive_format_errors:
                    self.add_messages(*e.messages, {"role": "exit", "content": "RepeatedFormatError"})
                else:
                    self.add_messages(*e.messages)
            except InterruptAgentFlow as e:
                self.add_messages(*e.messages)
            except Exception:
                raise
            if self.messages[-1].get("role") == "exit":
                break
        return self.messages[-1].get("extra", {})

    def step(self) -> list[dict]:
        return self.execute_actions(self.query())

    def query(self) -> dict:
        if 0 < self.config.step_limit <= self.n_calls or 0 < self.config.cost_limit <= self.cost:
            raise LimitsExceeded({"role": "exit", "content": "LimitsExceeded"})
        self.n_calls += 1
        message = self.model.query(self.messages)
        self.cost += message.get("extra", {}).get("cost", 0.0)
        self.add_messages(message)
        return message

    def execute_actions(self, message: dict) -> list[dict]:
        outputs = [self.env.execute(action) for action in message.get("extra", {}).get("actions", [])]
        return self.add_messages(*self.model.format_observation_messages(message, outputs))
