# A Python turn loop that leaves on the finish reason of the response: the returns under
# tests of that value say how the run ended.


class Agent:
    def __init__(self, client, tools):
        self.client = client
        self.tools = tools

    def run(self, messages):
        while True:
            resp = self.client.chat(messages=messages)
            if resp.finish_reason in ("cancelled", "error"):
                return messages
            match resp.status:
                case "timeout":
                    return messages
                case _:
                    pass
            if resp.finish_reason == "length" or resp.finish_reason == "content_filter":
                raise RuntimeError("stopped")
            calls = resp.tool_calls
            if not calls:
                return resp.content
            for call in calls:
                result = self.tools[call.name](call.arguments)
                messages.append({"role": "tool", "content": result})
