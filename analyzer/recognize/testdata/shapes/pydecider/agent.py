# A reply loop driven by a decider (agentscope==2.0.11 agent/_agent.py): _reply asks a
# read-only sibling for the next action (_next_action, 3512-3772) and dispatches on it; the
# decider tests the bound twice, first only when a structured output is required (3636: it
# forces the output tool and goes on), then for every reply (3736: it exits with a message
# whose finished_reason is EXCEED_MAX_ITERS). Each reply mints its id with a helper of another
# module named for what it makes (reply_id=_generate_id(), 1113).
import enum

from ids import _generate_id


class FinishedReason(str, enum.Enum):
    COMPLETED = "completed"
    EXCEED_MAX_ITERS = "exceed_max_iters"


class Msg:
    def __init__(self, content, finished_reason=None):
        self.content = content
        self.finished_reason = finished_reason


class Exit:
    def __init__(self, msg):
        self.msg = msg


class Config:
    max_iters: int = 50


class Agent:
    def __init__(self, model, tools, config=None):
        self.model = model
        self.tools = tools
        self.config = config or Config()
        self.cur_iter = 0
        self.schema = None
        self.messages = []

    def _next_action(self, final):
        if self.schema is not None:
            tool_choice = None
            if self.cur_iter >= self.config.max_iters:
                tool_choice = "generate_output"
            return ("reason", tool_choice)
        if final is not None:
            return Exit(final)
        if self.cur_iter >= self.config.max_iters:
            return Exit(Msg("The maximum iterations are exceeded.", finished_reason=FinishedReason.EXCEED_MAX_ITERS))
        return ("reason", None)

    async def reply(self, msg):
        self.messages.append(msg)
        self.context = dict(reply_id=_generate_id(), cur_iter=0)
        final = None
        while True:
            action = self._next_action(final)
            if isinstance(action, Exit):
                return action.msg
            response = await self.model.generate(self.messages, tools=self.tools)
            self.messages.append(response)
            if not response.tool_calls:
                final = Msg(response.text, finished_reason=FinishedReason.COMPLETED)
                continue
            for call in response.tool_calls:
                result = await self.tools[call.name].run(call.args)
                self.messages.append(result)
            self.cur_iter += 1
