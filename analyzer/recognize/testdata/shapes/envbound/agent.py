# Python turn loops whose default bounds come from the environment, with fallbacks.
import os
from os import getenv

MAX_STEPS = int(os.environ.get("AGENT_MAX_STEPS", "20"))
MAX_ROUNDS = int(getenv("AGENT_MAX_ROUNDS", "6"))


class Agent:
    def __init__(self, client, tools):
        self.client = client
        self.tools = tools

    def run(self, messages, max_steps: int = MAX_STEPS):
        for _ in range(max_steps):
            resp = self.client.chat(messages=messages)
            calls = resp.tool_calls
            if not calls:
                return resp.content
            for call in calls:
                messages.append({"role": "tool", "content": self.tools[call.name](call.arguments)})
        raise RuntimeError("max steps")

    def rounds(self, messages, max_rounds: int = MAX_ROUNDS):
        for _ in range(max_rounds):
            resp = self.client.chat(messages=messages)
            calls = resp.tool_calls
            if not calls:
                return resp.content
            for call in calls:
                messages.append({"role": "tool", "content": self.tools[call.name](call.arguments)})
        raise RuntimeError("max rounds")
