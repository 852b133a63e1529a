# Modelled on semantic-kernel==1.37.0 semantic_kernel/connectors/ai/open_ai/services/
# open_ai_chat_completion_base.py 75-130 (the provider's overrides of the base's abstract
# hooks) and open_ai_handler.py 56-100 (_send_request -> self.client.chat.completions.create).
from openai import AsyncOpenAI

from .base import ChatClientBase


class OpenAIChat(ChatClientBase):
    def __init__(self):
        self.client = AsyncOpenAI()

    async def _send_request(self, settings):
        return await self.client.chat.completions.create(**settings.prepare())

    async def _inner_get(self, chat_history, settings):
        settings.stream = False
        settings.messages = chat_history.to_messages()
        response = await self._send_request(settings)
        return [self._create_message(response, choice) for choice in response.choices]

    async def _inner_stream(self, chat_history, settings):
        settings.stream = True
        settings.messages = chat_history.to_messages()
        response = await self._send_request(settings)
        async for chunk in response:
            yield [self._create_streaming_message(chunk, choice) for choice in chunk.choices]

    def _create_message(self, response, choice):
        return choice.message

    def _create_streaming_message(self, chunk, choice):
        return choice.delta
