"""A step loop whose try is inside the loop: the handler of everything else re-raises, so an
error of the step ends the run failed (mini-swe-agent==2.4.6 minisweagent/agents/default.py:96-124:
except Exception as e: self.handle_uncaught_exception(e); raise)."""
from typing import Protocol


class Model(Protocol):
    def query(self, messages: list[dict]) -> dict: ...


class InterruptAgentFlow(Exception):
    def __init__(self, *messages: dict):
        self.messages = messages


class Submitted(InterruptAgentFlow):
    pass


class Agent:
    def __init__(self, model: Model, tools: dict):
        self.model = model
        self.tools = tools
        self.messages: list[dict] = []

    def add_messages(self, *messages: dict):
        self.messages.extend(messages)

    def handle_uncaught_exception(self, e: Exception):
        self.add_messages({"role": "exit", "content": str(e)})

    def save(self):
        pass

    def run(self, task: str) -> dict:
        self.messages = [{"role": "user", "content": task}]
        while True:
            try:
                self.step()
            except InterruptAgentFlow as e:
                self.add_messages(*e.messages)
            except Exception as e:
                self.handle_uncaught_exception(e)
                raise
            finally:
                self.save()
            if self.messages[-1].get("role") == "exit":
                break
        return self.messages[-1].get("extra", {})

    def step(self) -> list[dict]:
        response = self.model.query(self.messages)
        self.add_messages(response)
        outputs = [self.tools[a["name"]](**a["arguments"]) for a in response.get("actions", [])]
        for o in outputs:
            if o.startswith("SUBMIT"):
                raise Submitted({"role": "exit", "content": o})
        self.add_messages(*[{"role": "user", "content": o} for o in outputs])
        return outputs
