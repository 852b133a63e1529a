# One executor for every action: no lookup by name.
class Agent:
    def __init__(self, model, env, max_steps: int = 20):
        self.model = model
        self.env = env
        self.max_steps = max_steps

    def run(self, task):
        messages = [{"role": "user", "content": task}]
        for step in range(self.max_steps):
            response = self.model.query(messages)
            messages.append({"role": "assistant", "content": response["content"]})
            if not response["actions"]:
                return response["content"]
            outputs = [self.env.execute(action) for action in response["actions"]]
            for out in outputs:
                messages.append({"role": "user", "content": out})
        raise RuntimeError("step limit")
