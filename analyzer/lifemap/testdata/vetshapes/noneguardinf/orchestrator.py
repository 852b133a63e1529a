# Modelled on marvin@3.2.7 marvin/engine/orchestrator.py:240-300 with only its second guard
# (lines 247-248): the None a caller leaves is replaced by math.inf, which bounds nothing, so
# unboundedloop still reports the loop.
import json
import math


class Orchestrator:
    def __init__(self, client, tools):
        self.client = client
        self.tools = {t.name: t for t in tools}

    async def run(self, messages, max_turns: int | float | None = None):
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
