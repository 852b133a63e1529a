# Modelled on marvin@3.2.7 marvin/engine/orchestrator.py:240-300 (Orchestrator.run): the
# max_turns keyword defaults to None and the body replaces None by the configured default
# (marvin.settings.max_agent_turns, Field(default=100)) before the loop: the None is not the
# bound's default, and unboundedloop must not report the loop. The step is cut down to one
# model call whose tool calls are dispatched by name.
import json
import math

from .settings import settings


class Orchestrator:
    def __init__(self, client, tools):
        self.client = client
        self.tools = {t.name: t for t in tools}

    async def run(self, messages, max_turns: int | float | None = None):
        if max_turns is None:
            max_turns = settings.max_agent_turns
        if max_turns is None:
            max_turns = math.inf

        results = []
        turns = 0
        while max_turns is None or turns < max_turns:
            resp = await self.client.chat.completions.create(messages=messages)
            msg = resp.choices[0].message
            results.append(msg)
            if not msg.tool_calls:
                return results
            for tc in msg.tool_calls:
                out = self.tools[tc.function.name](**json.loads(tc.function.arguments))
                messages.append({"role": "tool", "content": out})
            turns += 1

        if max_turns and turns >= max_turns:
            raise ValueError("Max agent turns reached")
        return results
