import logging
from enum import Enum

logger = logging.getLogger(__name__)


class RunStatus(str, Enum):
    running = "running"
    error = "error"
    cancelled = "cancelled"
    completed = "completed"


class Agent:
    def __init__(self, client, tools):
        self.client = client
        self.tools = tools
        self.status = RunStatus.running
        self.stop_requested = False

    def _set_status(self, status):
        self.status = status

    def run(self, task):
        messages = [{"role": "user", "content": task}]
        for _ in range(10):
            try:
                reply = self.client.chat.completions.create(model="m", messages=messages, tools=self.tools)
            except Exception:
                self._set_status(RunStatus.error)
                return
            msg = reply.choices[0].message
            if not msg.tool_calls:
                self._set_status(status=RunStatus.completed)
                return None
            if msg.content == "":
                logger.error("failed")
                return
            for call in msg.tool_calls:
                result = self.tools[call.function.name](call.function.arguments)
                messages.append({"role": "tool", "content": result})
