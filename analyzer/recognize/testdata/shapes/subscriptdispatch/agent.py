class Agent:
    def __init__(self, client, tools):
        self.client = client
        self.tools = tools

    def run(self, messages, max_turns=8):
        by_name = {t["name"]: t for t in self.tools}
        for _ in range(max_turns):
            reply = self.client.chat.completions.create(model="m", messages=messages)
            message = reply.choices[0].message
            if not message.tool_calls:
                return message.content
            for tc in message.tool_calls:
                tool = by_name.get(tc.function.name)
                out = tool["function"](tc.function.arguments)
                messages.append({"role": "tool", "content": str(out)})
        raise RuntimeError("too many turns")
