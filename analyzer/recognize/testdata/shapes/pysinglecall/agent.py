# A single-shot structured-output agent: no turn loop, one model call per run (modelled on
# atomic-agents==1.1.11 atomic_agents/agents/base_agent.py:148-260): run adds the input to the
# memory, get_response makes the one call through an instructor client and run returns its
# reply; run_async streams the same one call as partial objects.
from memory import AgentMemory


class BaseAgent:
    def __init__(self, config):
        self.client = config.client
        self.model = config.model
        self.memory = config.memory or AgentMemory()
        self.output_schema = config.output_schema
        self.system_prompt = config.system_prompt

    def reset_memory(self):
        self.memory = AgentMemory()

    def get_response(self, response_model=None):
        if response_model is None:
            response_model = self.output_schema
        self.messages = [{"role": "system", "content": self.system_prompt}]
        self.messages += self.memory.get_history()
        response = self.client.chat.completions.create(
            messages=self.messages,
            model=self.model,
            response_model=response_model,
        )
        return response

    def run(self, user_input=None):
        if user_input:
            self.memory.initialize_turn()
            self.memory.add_message("user", user_input)
        response = self.get_response(response_model=self.output_schema)
        self.memory.add_message("assistant", response)
        return response

    async def run_async(self, user_input=None):
        if user_input:
            self.memory.initialize_turn()
            self.memory.add_message("user", user_input)
        self.messages = [{"role": "system", "content": self.system_prompt}]
        self.messages += self.memory.get_history()
        response_stream = self.client.chat.completions.create_partial(
            model=self.model,
            messages=self.messages,
            response_model=self.output_schema,
            stream=True,
        )
        async for partial_response in response_stream:
            yield partial_response
        self.memory.add_message("assistant", partial_response)


def translate_all(client, texts):
    # a batch: one model call per element of a finite list, no run of its own
    out = []
    for text in texts:
        out.append(client.chat.completions.create(model="m", messages=[{"role": "user", "content": text}]))
    return out


def chat_loop(agent):
    # a session of user turns: one run per line the user types (the __main__ demo REPL,
    # base_agent.py:416), no run entry of its own
    while True:
        line = input("You: ")
        if line == "exit":
            break
        print(agent.run(line))
