# The same in Python: the model object is constructed in the run method (new Model()).
class Model:
    def __init__(self, name):
        self.name = name

    def infer(self, messages):
        raise NotImplementedError


class Runner:
    def __init__(self, name, tools):
        self.name = name
        self.tools = tools

    def run(self, prompt):
        model = Model(self.name)
        messages = [prompt]
        for _ in range(8):
            reply = model.infer(messages)
            messages.append(reply.message)
            if not reply.tool_calls:
                return reply.content
            for call in reply.tool_calls:
                fn = self.tools[call.name]
                messages.append(fn(**call.arguments))
        return None
