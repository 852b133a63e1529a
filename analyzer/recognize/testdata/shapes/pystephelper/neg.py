"""Loops that are no turn loops, though a helper writes the state their leave test reads."""


class Worker:
    """A queue consumer: each job is dispatched by its kind to a handler, the handler's
    outcome is recorded, and the loop leaves on the recorded state; nothing it waits on is
    handed that state (no decision is made on it)."""

    def __init__(self, queue, handlers):
        self.queue = queue
        self.handlers = handlers
        self.log: list[dict] = []

    def serve(self):
        while True:
            self.step()
            if self.log and self.log[-1]["kind"] == "stop":
                return len(self.log)

    def step(self):
        jobs = self.queue.get_batch()
        for job in jobs:
            out = self.handlers[job["name"]](job)
            self.log.append({"kind": job["name"], "out": out})


class Retrier:
    """A retry loop around one model call: the loop goes round again only on a failure."""

    def __init__(self, model):
        self.model = model
        self.messages: list[dict] = []

    def ask(self, tools):
        for attempt in range(3):
            try:
                reply = self.model.query(self.messages)
            except TimeoutError:
                continue
            for call in reply["tool_calls"]:
                self.messages.append({"role": "tool", "content": tools[call["name"]](**call["arguments"])})
            return reply
        raise TimeoutError("no reply")


class Streamer:
    """A stream drain: the loop runs over the chunks of one model call's stream."""

    def __init__(self, model):
        self.model = model
        self.messages: list[dict] = []

    def stream(self, tools):
        for chunk in self.model.stream(self.messages):
            for call in chunk.get("tool_calls", []):
                self.messages.append({"role": "tool", "content": tools[call["name"]](**call["arguments"])})
            if self.messages and self.messages[-1]["role"] == "done":
                return
