# Modelled on llama-index-core@0.12.52.post1 llama_index/core/llms/llm.py and base/llms/types.py
# (read as a dependency, not mapped, as the installed package is):
# the LLM interface the worker is handed (chat returns one ChatResponse, stream_chat a
# generator of them).
from abc import abstractmethod
from typing import Generator


class ChatMessage:
    def __init__(self, content=None, role="user"):
        self.content = content
        self.role = role


class ChatResponse:
    def __init__(self, message, delta=None):
        self.message = message
        self.delta = delta


ChatResponseGen = Generator[ChatResponse, None, None]


class LLM:
    @abstractmethod
    def chat(self, messages, **kwargs) -> ChatResponse:
        """Chat endpoint for LLM."""

    @abstractmethod
    def stream_chat(self, messages, **kwargs) -> ChatResponseGen:
        """Streaming chat endpoint for LLM."""
