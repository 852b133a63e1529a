# Modelled on langroid==0.69.16 langroid/agent/base.py:1865-1930 (handle_message: the tools of
# a message handled one by one, results = [self.handle_tool_message(t) for t in tools]) and
# 2350-2381 (handle_tool_message: the tool's method looked up on the agent by the tool's name,
# handler_method = getattr(self, handler, None); None when the agent has no such method; else
# handler_method(tool)); the async twin looks up the handler's name plus a suffix,
# getattr(self, handler + "_async", None) (2317). Langroid keys by the tool message's `request`
# field; here the element carries its name as tool calls usually do (call.function.name).
from openai import OpenAI


def handler_name(tool_name):
    return tool_name.replace("-", "_")


class Agent:
    def __init__(self, max_turns: int = 10):
        self.client = OpenAI()
        self.max_turns = max_turns
        self.history = []

    def search_async(self, call):
        return "results for " + call.function.arguments

    def handle_tool_message(self, call):
        handler = handler_name(call.function.name)
        handler_method = getattr(self, handler + "_async", None)
        if handler_method is None:
            return None
        return handler_method(call)

    def handle_message(self, calls):
        return [self.handle_tool_message(c) for c in calls]

    def run(self, prompt: str):
        self.history.append({"role": "user", "content": prompt})
        for _ in range(self.max_turns):
            msg = self.client.chat.completions.create(messages=self.history)
            if not msg.tool_calls:
                return msg.content
            for result in self.handle_message(msg.tool_calls):
                self.history.append({"role": "tool", "content": result})
        return None
