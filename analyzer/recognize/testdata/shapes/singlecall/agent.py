class FunctionAgent:
    def __init__(self, llm, functions):
        self.llm = llm
        self.functions = functions

    def run(self, messages, max_rounds=6):
        for _ in range(max_rounds):
            completion = self.llm.complete(messages=messages, functions=list(self.functions))
            reply = completion.choices[0].message
            messages.append(reply)
            if not reply.function_call:
                return reply.content
            name = reply.function_call.name
            fn = self.functions.get(name)
            out = fn(reply.function_call.arguments) if fn else "no function " + name
            messages.append({"role": "function", "name": name, "content": out})
        return None
