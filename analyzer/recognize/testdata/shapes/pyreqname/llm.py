# Modelled on mcp-agent 0.2.6 mcp_agent/workflows/llm/augmented_llm_anthropic.py:235-398
# (AnthropicAugmentedLLM.generate) and augmented_llm.py:498-551 (AugmentedLLM.call_tool):
# each tool use's name is packed into a request object (CallToolRequest(params=
# CallToolRequestParams(name=tool_name))) handed to the method that calls the tool by it.
from anthropic import AsyncAnthropic


class CallToolRequestParams:
    def __init__(self, name, arguments):
        self.name = name
        self.arguments = arguments


class CallToolRequest:
    def __init__(self, method, params):
        self.method = method
        self.params = params


class AugmentedLLM:
    def __init__(self, agent):
        self.agent = agent
        self.client = AsyncAnthropic()

    async def call_tool(self, request, tool_call_id=None):
        tool_name = request.params.name
        tool_args = request.params.arguments
        return await self.agent.call_tool(tool_name, tool_args)

    async def generate(self, message, max_iterations=10):
        messages = [message]
        responses = []
        for i in range(max_iterations):
            response = await self.client.messages.create(messages=messages)
            messages.append(response)
            responses.append(response)
            if response.stop_reason == "end_turn":
                break
            elif response.stop_reason == "max_tokens":
                break
            else:
                for content in response.content:
                    if content.type == "tool_use":
                        tool_name = content.name
                        tool_args = content.input
                        tool_call_request = CallToolRequest(
                            method="tools/call",
                            params=CallToolRequestParams(name=tool_name, arguments=tool_args),
                        )
                        result = await self.call_tool(request=tool_call_request, tool_call_id=content.id)
                        messages.append(result)
        return responses
