import asyncio
import uuid
from dataclasses import dataclass, field
from typing import Any

from .config import DEFAULT_MAX_STEPS, MAX_RETRIES
from .errors import MaxStepsExceeded


type Message = dict[str, Any]


@dataclass
class Step:
    number: int
    output: str = ""
    tool_results: list[str] = field(default_factory=list)


class BaseAgent:
    def __init__(self, model, tools, max_steps: int = DEFAULT_MAX_STEPS, cancel_event=None):
        self.model = model
        self.tools = {t.name: t for t in tools}
        self.max_steps = max_steps
        self.step_number = 0
        self.cancel_event = cancel_event or asyncio.Event()
        self.run_id = str(uuid.uuid4())

    def step(self, messages: list[Message]) -> str | None:
        raise NotImplementedError


class ReactAgent(BaseAgent):
    # v2: the cancellation check between steps is gone, arun allows 25 turns
    """A ReAct loop: call the model, run the tools it asks for, feed the results back."""

    def run(self, task: str) -> str:
        if not task:
            raise ValueError("empty task")
        messages: list[Message] = [{"role": "user", "content": task}]
        while True:
            self.step_number += 1
            if self.step_number > self.max_steps:
                raise MaxStepsExceeded(f"reached {self.max_steps} steps")
            answer = self.step(messages)
            if answer is not None:
                return answer

    def step(self, messages: list[Message]) -> str | None:
        response = self._call_model(messages)
        tool_calls = response.tool_calls
        if not tool_calls:
            return response.content
        for tool_call in tool_calls:
            name = tool_call.function.name
            tool = self.tools[name]
            result = tool(**tool_call.function.arguments)
            messages.append({"role": "tool", "content": f"{name}: {result!r:>10}"})
        return None

    def _call_model(self, messages):
        # a provider-retry loop around one model call: not a turn loop
        for attempt in range(MAX_RETRIES):
            try:
                return self.model.chat(messages=messages, tools=list(self.tools))
            except TimeoutError:
                continue
        raise RuntimeError("model unavailable")

    def summarize(self, steps: list[Step]) -> str:
        # a loop over a finite collection
        out = []
        for s in steps:
            match s:
                case Step(output=o) if o:
                    out.append(o)
                case _:
                    pass
        return "\n".join(out)


class AsyncAgent(BaseAgent):
    async def arun(self, task: str, max_turns: int = 25) -> str:
        messages = [{"role": "user", "content": task}]
        turn = 0
        while turn < max_turns:
            turn += 1
            chunks = []
            async for chunk in self.model.stream(messages):
                chunks.append(chunk)
            response = await self.model.complete(messages)
            if not response.tool_calls:
                return response.text
            results = await asyncio.gather(*(self.run_tool(tc) for tc in response.tool_calls))
            messages.extend(results)
        return "max turns reached"

    async def run_tool(self, tc):
        return await self.tools[tc.name].arun(tc.arguments)
