# The same in Python: messages of the reply, tool calls of each message.
class Agent:
    def __init__(self, model, tools, max_iter: int = 0):
        self.model = model
        self.tools = tools
        self.max_iter = max_iter

    def run(self, text):
        history = [{"role": "user", "content": text}]
        i = 0
        while self.max_iter == 0 or i < self.max_iter:
            i += 1
            output = self.model.infer(history)
            history.extend(output.messages)
            results = self._invoke_tools(output.messages)
            if not results:
                return history
            history.extend(results)
        return history

    def _invoke_tools(self, messages):
        results = []
        for msg in messages:
            if msg.type != "tool_call":
                continue
            for call in msg.tools:
                tool = self.tools[call.name]
                results.append({"role": "tool", "content": tool.handler(call.input)})
        return results
