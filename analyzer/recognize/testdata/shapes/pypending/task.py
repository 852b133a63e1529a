# Modelled on langroid==0.69.16 langroid/agent/task.py:849-900 (Task.run: while True:
# self.step(); leaves on self.done()), 1246-1341 (Task.step: each responder in turn,
# result = self.response(r, turns); a valid one kept by _process_valid_responder_result, which
# stores self.pending_message = result, 1462-1490), 1581-1656 (Task.response: response_fn =
# self._entity_responder_map[e]; response_fn(self.pending_message)) and agent/base.py:217-233
# (entity_responders), 757-778 and 1865-1930 (agent_response -> handle_message: the tools of
# the pending message, each run by handle_tool_message), 2350-2381 (the handler looked up by a
# name computed from the tool: getattr(self, handler_name(tool.request), None)). The LLM's
# reply is kept as the pending message; the next step hands it to the agent responder, which
# runs its tools; their result is the next pending message the LLM responder answers. The
# document class comes from a module not mapped (langroid/agent/chat_document.py); the error
# document step builds for a message to another task (task.py:1259-1269) is a constructor's
# value, no model call.
from openai import OpenAI

from .chat_document import ChatDocument

def handler_name(request):
    return request.replace("-", "_")


class Agent:
    def __init__(self):
        self.client = OpenAI()
        self.history = []

    def entity_responders(self):
        return [("agent", self.agent_response), ("llm", self.llm_response)]

    def search(self, tool):
        return "results for " + tool.query

    def handle_tool_message(self, tool):
        handler = handler_name(tool.request)
        handler_method = getattr(self, handler, None)
        if handler_method is None:
            return None
        return handler_method(tool)

    def handle_message(self, msg):
        tools = msg.tool_messages
        if not tools:
            return None
        return [self.handle_tool_message(t) for t in tools]

    def agent_response(self, msg):
        results = self.handle_message(msg)
        if results is None:
            return None
        return ChatDocument("\n".join(results))

    def llm_response(self, msg):
        self.history.append({"role": "user", "content": msg.content})
        reply = self.client.chat.completions.create(messages=self.history)
        return ChatDocument(reply.content, reply.tool_calls)


class Task:
    def __init__(self, agent: Agent, max_turns: int = 0):
        self.agent = agent
        self.max_turns = max_turns
        self.responders = [e for e, _ in agent.entity_responders()]
        self._entity_responder_map = dict(agent.entity_responders())
        self.pending_message = None

    def run(self, msg):
        self.pending_message = ChatDocument(msg)
        i = 0
        while True:
            self.step()
            if self.done():
                break
            i += 1
            if self.max_turns > 0 and i >= self.max_turns:
                break
        return self.pending_message

    def step(self):
        if self.pending_message.recipient not in ("", "task"):
            error_doc = ChatDocument(content="Invalid recipient")
            self._process_valid_responder_result(error_doc)
            return error_doc
        for r in self.responders:
            result = self.response(r)
            if result is not None:
                self._process_valid_responder_result(result)
                break
        return self.pending_message

    def _process_valid_responder_result(self, result):
        self.pending_message = result

    def response(self, e):
        response_fn = self._entity_responder_map[e]
        return response_fn(self.pending_message)

    def done(self):
        return self.pending_message is not None and not self.pending_message.tool_messages
