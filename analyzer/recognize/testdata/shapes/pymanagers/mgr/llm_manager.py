# Modelled on swarms==16.0.3 swarms/agents/llm_manager.py (call 481-575, _call_llm 577-632):
# the manager keeps the agent that built it and calls the agent's model wrapper.
from typing import Any


class LLMManager:
    def __init__(self, agent: Any):
        self.agent = agent

    def call(self, task: str, current_loop: int = 0, *args, **kwargs) -> Any:
        agent = self.agent
        try:
            result = self._call_llm(task, current_loop, *args, **kwargs)
        finally:
            usage = getattr(agent, "_usage", None)
        return result

    def _call_llm(self, task: str, current_loop: int = 0, *args, **kwargs) -> Any:
        agent = self.agent
        return agent.llm.run(task, **kwargs)
