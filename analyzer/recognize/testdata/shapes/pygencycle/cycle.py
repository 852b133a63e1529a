"""An event loop of async generators: one cycle is one model call and its tools; the next
cycle is a recursion through a helper generator; the model's stop reason arrives as an event
of the stream; tools run in an executor class, one task per tool use, through wrappers."""

import asyncio


class StopEvent:
    def __init__(self, stop_reason, message):
        self.stop_reason = stop_reason
        self.message = message


class Executor:
    async def execute(self, agent, tool_uses, results):
        queue = asyncio.Queue()
        tasks = []
        for use in tool_uses:
            tasks.append(asyncio.create_task(self._task(agent, use, results, queue)))
        for _ in tasks:
            event = await queue.get()
            yield event

    async def _task(self, agent, use, results, queue):
        async for event in self._traced(agent, use, results):
            queue.put_nowait(event)

    async def _traced(self, agent, use, results):
        async for event in self._stream(agent, use, results):
            yield event

    async def _stream(self, agent, use, results):
        name = use["name"]
        tool = agent.registry.get(name)
        async for event in tool.stream(use):
            yield event
        results.append({"id": use["id"], "content": event})


class Agent:
    def __init__(self, model, registry):
        self.model = model
        self.registry = registry
        self.messages = []
        self.executor = Executor()
        self.cancelled = False
        self.steps = []

    async def add_messages(self, *messages):
        for m in messages:
            self.messages.append(m)

    async def stream(self, prompt):
        self.messages.append({"role": "user", "content": prompt})
        async for event in cycle(self):
            yield event

    def _make_terminal(self):
        async def terminal(prompt):
            self.messages.append({"role": "user", "content": prompt})
            async for event in cycle(self):
                yield event

        return terminal

    async def stream_through(self, prompt, middleware):
        async for event in middleware.run(prompt, self._make_terminal()):
            yield event


async def call_model(agent: Agent):
    async for chunk in agent.model.stream(agent.messages):
        yield chunk
    yield StopEvent(chunk["stop"], chunk["message"])


async def cycle(agent: Agent, limits=None):
    reason = check_limits(agent, limits)
    if reason is not None:
        yield {"stop": reason}
        return
    events = call_model(agent)
    stop = None
    async for event in events:
        if isinstance(event, StopEvent):
            stop = event
        else:
            yield event
    stop_reason, message = stop.stop_reason, stop.message
    if stop_reason == "max_tokens":
        raise RuntimeError("the reply was cut at the token limit")
    if stop_reason == "tool_use":
        async for event in run_tools(agent, message):
            yield event
        return
    yield {"stop": stop_reason, "message": message}


async def run_tools(agent: Agent, message):
    uses = [block["toolUse"] for block in message["content"] if "toolUse" in block]
    results = []
    async for event in agent.executor.execute(agent, uses, results):
        yield event
    reply = {"role": "user", "content": results}
    await agent.add_messages(reply)
    if agent.cancelled:
        yield {"stop": "cancelled"}
        return
    async for event in recurse(agent):
        yield event


async def recurse(agent: Agent):
    async for event in cycle(agent):
        yield event


def check_limits(agent: Agent, limits):
    if not limits:
        return None
    steps = len(agent.steps)
    cap = limits.get("steps")
    if cap is not None and steps >= cap:
        return "limit_steps"
    return None
