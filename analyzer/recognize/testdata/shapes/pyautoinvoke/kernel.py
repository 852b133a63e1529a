# Modelled on semantic-kernel==1.37.0 semantic_kernel/kernel.py 326-477 (invoke_function_call:
# the function looked up by the call's name, self.get_function(plugin_name, function_name);
# an invocation context built around it, run through a filter chain, await stack(context),
# down to context.function.invoke; its result appended to the chat history the caller's next
# request reads, chat_history.add_message(message=message)) and
# semantic_kernel/filters/kernel_filters_extension.py 108-118 (construct_call_stack); get_function
# comes from a mixin of a module outside the set (functions/kernel_function_extension.py).
from functools import partial

from .contents import FunctionResultContent
from .functions import KernelFunctionExtension


class InvocationContext:
    def __init__(self, function, kernel, chat_history, function_call_content):
        self.function = function
        self.kernel = kernel
        self.chat_history = chat_history
        self.function_call_content = function_call_content
        self.function_result = None
        self.terminate = False


class Kernel(KernelFunctionExtension):
    def __init__(self, plugins):
        self.plugins = plugins
        self.filters = []

    def construct_call_stack(self, inner_function):
        stack = inner_function
        for f in reversed(self.filters):
            stack = partial(f, next=stack)
        return stack

    async def invoke_function_call(self, function_call, chat_history, *, function_call_count=None, request_index=None):
        try:
            function_to_call = self.get_function(function_call.plugin_name, function_call.function_name)
        except Exception:
            frc = FunctionResultContent(function_call_content=function_call, result="not part of the provided tools")
            chat_history.add_message(message=frc.to_chat_message_content())
            return None
        invocation_context = InvocationContext(
            function=function_to_call,
            kernel=self,
            chat_history=chat_history,
            function_call_content=function_call,
        )
        stack = self.construct_call_stack(inner_function=self._inner_invoke)
        await stack(invocation_context)
        frc = FunctionResultContent(function_call_content=function_call, result=invocation_context.function_result)
        message = frc.to_chat_message_content()
        chat_history.add_message(message=message)
        return invocation_context if invocation_context.terminate else None

    async def _inner_invoke(self, context):
        result = await context.function.invoke(context.kernel, context.function_call_content.to_kernel_arguments())
        if result:
            context.function_result = result
