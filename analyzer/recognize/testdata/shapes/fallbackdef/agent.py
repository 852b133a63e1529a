from .limits import DEFAULT_MAX_TURNS



class Agent:
    def __init__(self, client, tools, max_iters: int = 7):
        self.client = client
        self.tools = tools
        self.max_iters = max_iters

    def run(self, task, **input_args):
        max_iters = input_args.pop("max_iters", self.max_iters)
        messages = [{"role": "user", "content": task}]
        for idx in range(max_iters):
            reply = self.client.chat.completions.create(model="m", messages=messages, tools=self.tools)
            msg = reply.choices[0].message
            if not msg.tool_calls:
                return msg.content
            for call in msg.tool_calls:
                result = self.tools[call.function.name](call.function.arguments)
                messages.append({"role": "tool", "content": result})
        return None


class Other:
    def __init__(self, client, tools):
        self.client = client
        self.tools = tools

    def go(self, task, **kwargs):
        max_turns = kwargs.get("max_turns", DEFAULT_MAX_TURNS)
        messages = [{"role": "user", "content": task}]
        turn = 0
        while turn < max_turns:
            turn += 1
            reply = self.client.chat.completions.create(model="m", messages=messages, tools=self.tools)
            msg = reply.choices[0].message
            if not msg.tool_calls:
                return msg.content
            for call in msg.tool_calls:
                result = self.tools[call.function.name](call.function.arguments)
                messages.append({"role": "tool", "content": result})
        return None


class Third:
    def __init__(self, client, tools, config):
        self.client = client
        self.tools = tools
        self.config = config

    @property
    def max_steps(self):
        return self.config.get("max_steps") or DEFAULT_MAX_TURNS

    def step_all(self, task):
        messages = [{"role": "user", "content": task}]
        for _ in range(self.max_steps):
            reply = self.client.chat.completions.create(model="m", messages=messages, tools=self.tools)
            msg = reply.choices[0].message
            if not msg.tool_calls:
                return msg.content
            for call in msg.tool_calls:
                result = self.tools[call.function.name](call.function.arguments)
                messages.append({"role": "tool", "content": result})
        raise RuntimeError("too many steps")
