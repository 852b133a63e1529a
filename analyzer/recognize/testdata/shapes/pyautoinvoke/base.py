# Modelled on semantic-kernel==1.37.0 semantic_kernel/connectors/ai/chat_completion_client_base.py
# 85-174 (get_chat_message_contents: for request_index in range(...maximum_auto_invoke_attempts),
# the abstract hook self._inner_get_chat_message_contents (raise NotImplementedError, 58) a
# provider subclass in another module overrides; leaves when `if (fc_count :=
# len(function_calls)) == 0: return completions`; the tools run by
# kernel.invoke_function_call(function_call=..., chat_history=chat_history) under
# asyncio.gather, which appends each tool's result to the chat history the next request reads;
# for...else: one last request without tools at the bound), 196-318 (the streaming twin: a flag
# set while the reply's stream is drained, `if not function_call_returned: return`).
import asyncio
import copy
from functools import reduce
from typing import TYPE_CHECKING

from .contents import FunctionCallContent

if TYPE_CHECKING:
    from .kernel import Kernel

DEFAULT_MAX_AUTO_INVOKE_ATTEMPTS = 5


class FunctionChoiceBehavior:
    maximum_auto_invoke_attempts: int = DEFAULT_MAX_AUTO_INVOKE_ATTEMPTS


class ChatClientBase:
    async def _inner_get(self, chat_history, settings):
        raise NotImplementedError("The _inner_get method is not implemented.")

    async def _inner_stream(self, chat_history, settings):
        raise NotImplementedError("The _inner_stream method is not implemented.")
        yield []

    async def get_contents(self, chat_history, settings, **kwargs):
        settings = copy.deepcopy(settings)
        kernel: "Kernel" = kwargs.get("kernel")
        if kernel is None:
            raise ValueError("The kernel is required for function calls.")
        for request_index in range(settings.behavior.maximum_auto_invoke_attempts):
            completions = await self._inner_get(chat_history, settings)
            function_calls = [item for item in completions[0].items if isinstance(item, FunctionCallContent)]
            if (fc_count := len(function_calls)) == 0:
                return completions
            chat_history.add_message(message=completions[0])
            results = await asyncio.gather(
                *[
                    kernel.invoke_function_call(
                        function_call=function_call,
                        chat_history=chat_history,
                        function_call_count=fc_count,
                        request_index=request_index,
                    )
                    for function_call in function_calls
                ],
            )
            if any(result.terminate for result in results if result is not None):
                return chat_history.messages[-len(results) :]
        else:
            settings.tools = None
            return await self._inner_get(chat_history, settings)

    async def stream_contents(self, chat_history, settings, **kwargs):
        settings = copy.deepcopy(settings)
        kernel: "Kernel" = kwargs.get("kernel")
        if kernel is None:
            raise ValueError("The kernel is required for function calls.")
        for request_index in range(settings.behavior.maximum_auto_invoke_attempts):
            all_messages = []
            function_call_returned = False
            async for messages in self._inner_stream(chat_history, settings):
                for msg in messages:
                    if msg is not None:
                        all_messages.append(msg)
                        if not function_call_returned and any(
                            isinstance(item, FunctionCallContent) for item in msg.items
                        ):
                            function_call_returned = True
                yield messages
            if not function_call_returned:
                return
            full_completion = reduce(lambda x, y: x + y, all_messages)
            function_calls = [item for item in full_completion.items if isinstance(item, FunctionCallContent)]
            chat_history.add_message(message=full_completion)
            results = await asyncio.gather(
                *[
                    kernel.invoke_function_call(function_call=function_call, chat_history=chat_history)
                    for function_call in function_calls
                ],
            )
            if any(result.terminate for result in results if result is not None):
                break
