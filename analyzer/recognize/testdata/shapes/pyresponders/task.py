# Modelled on langroid==0.69.16 langroid/agent/task.py:403-419 (Task.__init__: the responders'
# table, self._entity_responder_map = dict(agent.entity_responders())), task.py:1638-1639
# (Task.response: response_fn = self._entity_responder_map[e]; result = response_fn(msg)) and
# agent/base.py:217-233 (Agent.entity_responders returns [(Entity.AGENT, self.agent_response),
# (Entity.LLM, self.llm_response), (Entity.USER, self.user_response)]): the step calls a bound
# method looked up in a table of them that a field holds. The step here is the LLM
# responder's whole model call and tool dispatch (in langroid the tools run in the next step).
from enum import Enum

from openai import OpenAI


class Entity(str, Enum):
    AGENT = "Agent"
    LLM = "LLM"


class Agent:
    def __init__(self):
        self.client = OpenAI()
        self.tools = {}
        self.history = []

    def entity_responders(self):
        return [
            (Entity.AGENT, self.agent_response),
            (Entity.LLM, self.llm_response),
        ]

    def agent_response(self, msg):
        return None

    def llm_response(self, msg):
        self.history.append(msg)
        response = self.client.chat.completions.create(messages=self.history)
        if not response.tool_calls:
            return None
        for call in response.tool_calls:
            self.history.append(self.tools[call.function.name](call))
        return response


class Task:
    def __init__(self, agent: Agent, turns: int = 5):
        self.agent = agent
        self.turns = turns
        self._entity_responder_map = dict(agent.entity_responders())

    def run(self, msg):
        i = 0
        while True:
            result = self.response(Entity.LLM, msg)
            if result is None:
                break
            i += 1
            if i >= self.turns:
                break
        return msg

    def response(self, e, msg):
        response_fn = self._entity_responder_map[e]
        return response_fn(msg)
