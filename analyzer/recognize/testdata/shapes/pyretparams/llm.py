# Modelled on mcp-agent 0.2.6 mcp_agent/workflows/llm/augmented_llm.py:140-160 (RequestParams,
# max_iterations: int = 10) and 418-440 (get_request_params -> RequestParams), with the loop of
# augmented_llm_openai.py:204-261: the bound is a field of a local a method of self returns,
# whose annotated return type is the class that defaults it.
from pydantic import BaseModel
from openai import OpenAI


class RequestParams(BaseModel):
    max_iterations: int = 10


class LLM:
    def __init__(self, tools, default_request_params=None):
        self.client = OpenAI()
        self.tools = tools
        self.default_request_params = default_request_params or RequestParams()

    def get_request_params(self, request_params=None) -> RequestParams:
        params = self.default_request_params.model_dump()
        if request_params:
            params.update(request_params.model_dump(exclude_unset=True))
        return RequestParams(**params)

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
