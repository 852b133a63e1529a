# Modelled on autogen-agentchat==0.7.5 autogen_agentchat/agents/_assistant_agent.py
# (AssistantAgent.on_messages_stream 901, _call_llm 1056, _process_model_result 1118-1325,
# _execute_tool_call 1536): the first model call is made before the loop; the loop returns
# when the reply's content is text (isinstance(current_model_result.content, str)), runs the
# calls of the reply under asyncio.gather in a task, and asks the model again at the end of
# its body. The class lives in a private module its package's __init__ re-exports.
import asyncio


class CreateResult:
    content = None


class AssistantAgent:
    def __init__(self, model_client, workbench, max_tool_iterations: int = 1):
        self._model_client = model_client
        self._workbench = [workbench]
        self._max_tool_iterations = max_tool_iterations

    async def on_messages_stream(self, messages, cancellation_token):
        model_client = self._model_client
        workbench = self._workbench
        max_tool_iterations = self._max_tool_iterations
        model_result = None
        async for inference_output in self._call_llm(model_client=model_client, messages=messages):
            if isinstance(inference_output, CreateResult):
                model_result = inference_output
            else:
                yield inference_output
        async for output_event in self._process_model_result(
            model_result=model_result,
            model_client=model_client,
            messages=messages,
            workbench=workbench,
            max_tool_iterations=max_tool_iterations,
        ):
            yield output_event

    @classmethod
    async def _call_llm(cls, model_client, messages):
        model_result = await model_client.create(messages, tools=[])
        yield model_result

    @classmethod
    async def _process_model_result(cls, model_result, model_client, messages, workbench, max_tool_iterations):
        current_model_result = model_result
        executed = []
        for loop_iteration in range(max_tool_iterations):
            if isinstance(current_model_result.content, str):
                yield current_model_result.content
                return

            async def _execute_tool_calls(function_calls):
                results = await asyncio.gather(*[cls._execute_tool_call(tool_call=call, workbench=workbench) for call in function_calls])
                return results

            task = asyncio.create_task(_execute_tool_calls(current_model_result.content))
            executed = await task
            messages.append(executed)
            if loop_iteration == max_tool_iterations - 1:
                break
            next_model_result = None
            async for llm_output in cls._call_llm(model_client=model_client, messages=messages):
                if isinstance(llm_output, CreateResult):
                    next_model_result = llm_output
                else:
                    yield llm_output
            current_model_result = next_model_result
        yield executed
        return

    @staticmethod
    async def _execute_tool_call(tool_call, workbench):
        for wb in workbench:
            tools = await wb.list_tools()
            if any(t["name"] == tool_call.name for t in tools):
                return await wb.call_tool(name=tool_call.name, arguments=tool_call.arguments)
        return None
