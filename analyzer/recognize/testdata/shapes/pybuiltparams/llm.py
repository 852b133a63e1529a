# Modelled on mcp-agent 0.2.6: RequestParams (mcp_agent/workflows/llm/augmented_llm.py:140-160,
# max_iterations: int = 10), AugmentedLLM.__init__ keeping the caller's defaults (321) and
# get_request_params starting from them (418-440); OpenAIAugmentedLLM.__init__ building the
# defaults object with a keyword for the bound (augmented_llm_openai.py:153-161,
# max_iterations=10 at 159) and generate's loop (204, 261). The bound params.max_iterations
# defaults to that keyword; PlainLLM's constructor builds its defaults without one, so the
# class field default stays.
from pydantic import BaseModel
from openai import OpenAI


class RequestParams(BaseModel):
    maxTokens: int = 2048
    max_iterations: int = 10


class AugmentedLLM:
    def __init__(self, tools, default_request_params=None):
        self.client = OpenAI()
        self.tools = tools
        self.default_request_params = default_request_params

    def get_request_params(self, request_params=None, default=None) -> RequestParams:
        default_request_params = default or self.default_request_params
        params = default_request_params.model_dump() if default_request_params else {}
        if request_params:
            params.update(request_params.model_dump(exclude_unset=True))
        return RequestParams(**params)


class OpenAILLM(AugmentedLLM):
    def __init__(self, tools, **kwargs):
        super().__init__(tools, **kwargs)
        self.default_request_params = self.default_request_params or RequestParams(
            maxTokens=4096,
            max_iterations=10,
        )

    def generate(self, messages, request_params=None):
        params = self.get_request_params(request_params)
        for i in range(params.max_iterations):
            response = self.client.chat.completions.create(messages=messages)
            message = response.choices[0].message
            messages.append(message)
            if not message.tool_calls:
                break
            for tc in message.tool_calls:
                messages.append(self.tools[tc.function.name](tc.function.arguments))
        return messages


class PlainLLM(AugmentedLLM):
    def __init__(self, tools, **kwargs):
        super().__init__(tools, **kwargs)
        self.default_request_params = self.default_request_params or RequestParams(maxTokens=1024)

    def generate(self, messages, request_params=None):
        params = self.get_request_params(request_params)
        for i in range(params.max_iterations):
            response = self.client.chat.completions.create(messages=messages)
            message = response.choices[0].message
            messages.append(message)
            if not message.tool_calls:
                break
            for tc in message.tool_calls:
                messages.append(self.tools[tc.function.name](tc.function.arguments))
        return messages
