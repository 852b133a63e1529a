# Modelled on camel-ai@0.2.90 camel/agents/mcp_agent.py:330-411 (MCPAgent.astep, verbatim but
# its docstring): without function calling, the reply's text is parsed for tool calls, each is
# run on its MCP server, and the results go back through self.astep, a recursion with no depth
# bound and no cancellation check.
import json
from typing import Union

from chat_agent import ChatAgent, ChatAgentResponse, BaseMessage, TextPrompt

FINAL_RESPONSE_PROMPT = "Tool results: {results}"


def extract_tool_calls_from_text(content):
    return json.loads(content).get("tool_calls", [])


class MCPAgent(ChatAgent):
    def __init__(self, model, mcp_toolkit, function_calling_available=False):
        super().__init__(model)
        self.mcp_toolkit = mcp_toolkit
        self.function_calling_available = function_calling_available
        self._text_tools = ""

    async def connect(self):
        await self.mcp_toolkit.connect()

    async def astep(
        self, input_message: Union[BaseMessage, str], *args, **kwargs
    ) -> ChatAgentResponse:
        if self.mcp_toolkit and not self.mcp_toolkit.is_connected:
            await self.connect()

        if self.function_calling_available:
            return await super().astep(input_message, *args, **kwargs)
        else:
            task = f"## Task:\n  {input_message}"
            input_message = str(self._text_tools) + task
            response = await super().astep(input_message, *args, **kwargs)
            raw_content = response.msgs[0].content if response.msgs else ""
            content = (
                raw_content
                if isinstance(raw_content, str)
                else str(raw_content)
            )

            tool_calls = extract_tool_calls_from_text(content)

            if not tool_calls:
                return response
            else:
                tools_results = []
                for tool_call in tool_calls:
                    try:
                        server_idx = tool_call.get('server_idx')
                        tool_name = tool_call.get('tool_name')
                        tool_args = tool_call.get('tool_args', {})

                        # Validate required fields
                        if server_idx is None or tool_name is None:
                            logger.warning(
                                f"Missing required fields in tool "
                                f"call: {tool_call}"
                            )
                            continue

                        # Check server index is valid
                        if (
                            not isinstance(server_idx, int)
                            or server_idx < 0
                            or server_idx >= len(self.mcp_toolkit.clients)
                        ):
                            logger.warning(
                                f"Invalid server index: {server_idx}"
                            )
                            continue

                        server = self.mcp_toolkit.clients[server_idx]
                        result = await server.call_tool(tool_name, tool_args)

                        # Safely access content
                        if result.content and len(result.content) > 0:
                            tools_results.append(
                                {tool_name: result.content[0].text}
                            )
                        else:
                            tools_results.append(
                                {tool_name: "No result content available"}
                            )
                    except Exception as e:
                        logger.error(f"Error processing tool call: {e}")
                        tools_results.append({"error": str(e)})
                results = json.dumps(tools_results)
                final_prompt = TextPrompt(FINAL_RESPONSE_PROMPT).format(
                    results=results
                )
                response = await self.astep(final_prompt)
                return response
