# Reduced from agno==3.1.10 agno/models/openai/chat.py: the provider subclass overrides the
# abstract invoke with the SDK call (OpenAIChat.invoke, 392-482; chat.completions.create, 419).
from models.base import Model, ModelResponse


class OpenAIChat(Model):
    def __init__(self, client, model_id, retries=0):
        super().__init__(retries=retries)
        self.client = client
        self.id = model_id

    def invoke(self, messages, assistant_message, tools=None):
        provider_response = self.client.chat.completions.create(model=self.id, messages=messages, tools=tools)
        choice = provider_response.choices[0].message
        return ModelResponse(content=choice.content, tool_calls=choice.tool_calls)
