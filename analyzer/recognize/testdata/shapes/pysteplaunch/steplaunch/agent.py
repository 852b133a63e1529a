# Modelled on camel-ai==0.2.90 camel/agents/chat_agent.py:2864-2878 (ChatAgent.step): one
# task, the whole step, submitted to a one-worker executor outside any loop to run under a
# timeout; the tools the reply asks for run one after another inside it
# (chat_agent.py:3026-3036, _execute_tool 4037-4048).
import concurrent.futures
from typing import Any, Optional


class Agent:
    def __init__(self, llm: Any, tools: list, step_timeout: Optional[float] = None):
        self.llm = llm
        self._internal_tools = {t.name: t for t in tools}
        self.step_timeout = step_timeout
        self.messages: list = []

    def run(self, task: str) -> Any:
        self.messages.append({"role": "user", "content": task})
        while True:
            reply = self.llm.chat(self.messages)
            if not reply.tool_calls:
                return reply
            self.step(reply)

    def step(self, reply: Any) -> Any:
        if self.step_timeout is not None:
            with concurrent.futures.ThreadPoolExecutor(max_workers=1) as executor:
                future = executor.submit(self._step_impl, reply)
                try:
                    return future.result(timeout=self.step_timeout)
                except concurrent.futures.TimeoutError:
                    future.cancel()
                    raise TimeoutError(f"Step timed out after {self.step_timeout}s")
        return self._step_impl(reply)

    def _step_impl(self, reply: Any) -> None:
        for tool_call in reply.tool_calls:
            tool = self._internal_tools[tool_call.name]
            result = tool(**tool_call.args)
            self.messages.append({"role": "tool", "content": result})


class PoolAgent:
    """One task per tool call (a comprehension of submits): parallel, launch or not."""

    def __init__(self, llm: Any, tools: list):
        self.llm = llm
        self._internal_tools = {t.name: t for t in tools}
        self.messages: list = []

    def run(self, task: str) -> Any:
        self.messages.append({"role": "user", "content": task})
        while True:
            reply = self.llm.chat(self.messages)
            if not reply.tool_calls:
                return reply
            self._run_all(reply)

    def _run_all(self, reply: Any) -> None:
        with concurrent.futures.ThreadPoolExecutor() as executor:
            futures = [executor.submit(self._run_one, tool_call) for tool_call in reply.tool_calls]
            for future in futures:
                self.messages.append({"role": "tool", "content": future.result()})

    def _run_one(self, tool_call: Any) -> Any:
        tool = self._internal_tools[tool_call.name]
        return tool(**tool_call.args)
