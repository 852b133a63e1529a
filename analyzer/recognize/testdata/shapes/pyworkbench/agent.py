# Reduced from autogen-agentchat==0.7.5 autogen_agentchat/agents/_assistant_agent.py: the tool
# iterations of _process_model_result (1149: leave on a text reply, run the reply's calls under
# asyncio.gather, ask the model again), and _execute_tool_call (1536-1620): a handoff tool
# matched by name, else each workbench of a `Sequence[Workbench]` parameter is asked whether
# it lists a tool of the call's name (if any(t["name"] == tool_call.name for t in tools)) and
# then asked to run it by that name (await wb.call_tool(name=tool_call.name, ...), :1600).
import asyncio
import json
from typing import List, Sequence

from workbench import StaticWorkbench, Workbench


class FunctionExecutionResult:
    def __init__(self, content, call_id, is_error, name):
        self.content = content
        self.call_id = call_id
        self.is_error = is_error
        self.name = name


class AssistantAgent:
    def __init__(self, model_client, tools=None, handoffs=None, max_tool_iterations: int = 1):
        self._model_client = model_client
        self._workbench = [StaticWorkbench(tools or [])]
        self._handoff_tools = list(handoffs or [])
        self._max_tool_iterations = max_tool_iterations

    async def run(self, messages, cancellation_token=None):
        result = None
        for loop_iteration in range(self._max_tool_iterations):
            result = await self._model_client.create(messages, cancellation_token=cancellation_token)
            if isinstance(result.content, str):
                return result.content
            results = await asyncio.gather(
                *[
                    self._execute_tool_call(
                        tool_call=call,
                        workbench=self._workbench,
                        handoff_tools=self._handoff_tools,
                        cancellation_token=cancellation_token,
                    )
                    for call in result.content
                ]
            )
            messages.append({"role": "function", "content": [r for _, r in results]})
        return result

    @staticmethod
    async def _execute_tool_call(tool_call, workbench: Sequence[Workbench], handoff_tools: List, cancellation_token):
        try:
            arguments = json.loads(tool_call.arguments)
        except json.JSONDecodeError as e:
            return (tool_call, FunctionExecutionResult(content=f"Error: {e}", call_id=tool_call.id, is_error=True, name=tool_call.name))
        for handoff_tool in handoff_tools:
            if tool_call.name == handoff_tool.name:
                result = await handoff_tool.run_json(arguments, cancellation_token, call_id=tool_call.id)
                result_as_str = handoff_tool.return_value_as_string(result)
                return (tool_call, FunctionExecutionResult(content=result_as_str, call_id=tool_call.id, is_error=False, name=tool_call.name))
        for wb in workbench:
            tools = await wb.list_tools()
            if any(t["name"] == tool_call.name for t in tools):
                tool_result = await wb.call_tool(
                    name=tool_call.name,
                    arguments=arguments,
                    cancellation_token=cancellation_token,
                    call_id=tool_call.id,
                )
                return (
                    tool_call,
                    FunctionExecutionResult(
                        content=tool_result.to_text(),
                        call_id=tool_call.id,
                        is_error=tool_result.is_error,
                        name=tool_call.name,
                    ),
                )
        return (
            tool_call,
            FunctionExecutionResult(
                content=f"Error: tool '{tool_call.name}' not found in any workbench",
                call_id=tool_call.id,
                is_error=True,
                name=tool_call.name,
            ),
        )
