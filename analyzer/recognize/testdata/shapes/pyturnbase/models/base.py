# Reduced from agno==3.1.10 agno/models/base.py: the turn loop is `while True` in the Model
# base class (Model.response, 651-882). The reply is written into a message the loop builds and
# hands over (assistant_message = Message(...); self._process_model_response(...,
# assistant_message=assistant_message), 714-726, whose result is dropped): the helper asks the
# provider through a retry helper and an abstract invoke a provider subclass overrides
# (_invoke_with_retry -> self.invoke, 226-272, 553), then copies the response into the message
# (_populate_assistant_message, 1140). The loop tests the message (if
# assistant_message.tool_calls:, 742) and runs the calls through generators (for ... in
# self.run_function_calls(...), 753; yield from self.run_function_call(...), 2570). The only
# limit is per tool call: a count the loop carries into the helper (current_function_call_count
# =function_call_count) compared with the optional limit inside the helper's loop over the
# calls (2431-2445); a call past it gets an error result and the loop goes on.
from abc import ABC, abstractmethod


class ProviderError(Exception):
    pass


class Message:
    def __init__(self, role, content=None, tool_calls=None):
        self.role = role
        self.content = content
        self.tool_calls = tool_calls


class ModelResponse:
    def __init__(self, content=None, tool_calls=None):
        self.content = content
        self.tool_calls = tool_calls


class FunctionCall:
    def __init__(self, name, arguments):
        self.name = name
        self.arguments = arguments


class Model(ABC):
    def __init__(self, retries=0):
        self.retries = retries

    @abstractmethod
    def invoke(self, messages, assistant_message, tools=None):
        pass

    def _invoke_with_retry(self, **kwargs):
        last = None
        for attempt in range(self.retries + 1):
            try:
                return self.invoke(**kwargs)
            except ProviderError as e:
                last = e
        raise last

    def _populate_assistant_message(self, assistant_message, provider_response):
        if provider_response.content is not None:
            assistant_message.content = provider_response.content
        if provider_response.tool_calls:
            assistant_message.tool_calls = provider_response.tool_calls

    def _process_model_response(self, messages, assistant_message, tools=None):
        provider_response = self._invoke_with_retry(messages=messages, assistant_message=assistant_message, tools=tools)
        self._populate_assistant_message(assistant_message=assistant_message, provider_response=provider_response)

    def _prepare_function_calls(self, assistant_message):
        return [FunctionCall(tc["function"]["name"], tc["function"]["arguments"]) for tc in assistant_message.tool_calls]

    def run_function_call(self, function_call, functions, function_call_results):
        entrypoint = functions[function_call.name]
        output = entrypoint(**function_call.arguments)
        function_call_results.append(Message(role="tool", content=output))
        yield output

    def run_function_calls(self, function_calls, functions, function_call_results, current_function_call_count=0, function_call_limit=None):
        for fc in function_calls:
            if function_call_limit is not None:
                current_function_call_count += 1
                if current_function_call_count > function_call_limit:
                    function_call_results.append(Message(role="tool", content="tool call limit reached"))
                    continue
            yield from self.run_function_call(function_call=fc, functions=functions, function_call_results=function_call_results)

    def response(self, messages, tools=None, tool_call_limit=None):
        functions = {t.name: t for t in tools} if tools is not None else {}
        function_call_count = 0
        model_response = ModelResponse()
        while True:
            assistant_message = Message(role="assistant")
            self._process_model_response(messages=messages, assistant_message=assistant_message, tools=tools)
            messages.append(assistant_message)
            if assistant_message.tool_calls:
                function_calls_to_run = self._prepare_function_calls(assistant_message=assistant_message)
                function_call_results = []
                for event in self.run_function_calls(
                    function_calls=function_calls_to_run,
                    functions=functions,
                    function_call_results=function_call_results,
                    current_function_call_count=function_call_count,
                    function_call_limit=tool_call_limit,
                ):
                    model_response.content = event
                function_call_count += len(function_call_results)
                messages.extend(function_call_results)
                continue
            break
        model_response.content = assistant_message.content
        return model_response
