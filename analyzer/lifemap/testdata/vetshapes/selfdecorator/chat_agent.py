# Modelled on camel-ai@0.2.90 camel/agents/chat_agent.py and camel/prompts/base.py (ChatAgent.astep
# calls the model backend once per step; TextPrompt is a str with a format method).


class BaseMessage:
    content = ""


class ChatAgentResponse:
    def __init__(self, msgs):
        self.msgs = msgs


class TextPrompt(str):
    def format(self, *args, **kwargs):
        return str.format(self, *args, **kwargs)


class ChatAgent:
    def __init__(self, model):
        self.model_backend = model

    async def astep(self, input_message, *args, **kwargs):
        messages = [{"role": "user", "content": str(input_message)}]
        response = await self.model_backend.arun(messages)
        return ChatAgentResponse([response.choices[0].message])
