# The step counter lives in a context object: the loop tests ctx.counter against the cap
# and the step helper the body calls counts the step (ctx.counter += 1).
class Context:
    def __init__(self, messages):
        self.messages = messages
        self.counter = 0


class Agent:
    def __init__(self, llm, tools, max_steps: int = 20):
        self.llm = llm
        self.tools = tools
        self.max_steps = max_steps

    def run(self, messages):
        ctx = Context(messages)
        while ctx.counter < self.max_steps:
            reply = self.llm.chat(ctx.messages)
            ctx.messages.append(reply.message)
            if not reply.tool_calls:
                return reply.content
            self._step(ctx, reply)
        return None

    def _step(self, ctx, reply):
        for call in reply.tool_calls:
            fn = self.tools[call.name]
            ctx.messages.append(fn(**call.arguments))
        ctx.counter += 1
