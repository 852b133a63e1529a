# Modelled on mcp-agent 0.2.6 mcp_agent/workflows/llm/augmented_llm_openai.py:261-381
# (OpenAIAugmentedLLM.generate) and mcp_agent/executor/executor.py:260-345 (AsyncioExecutor):
# the model call is a function reference handed to an executor that runs it
# (await task(*args)); each tool call is bound with functools.partial to the method that runs
# it, and the partials go to the executor's execute_many.
import asyncio
import functools

from openai import AsyncOpenAI


class CompletionTasks:
    @staticmethod
    async def request_completion_task(request):
        async with AsyncOpenAI() as client:
            return await client.chat.completions.create(**request)


class Executor:
    async def _execute_task(self, task, *args, **kwargs):
        try:
            return await task(*args, **kwargs)
        except Exception as e:
            return e

    async def execute(self, task, *args, **kwargs):
        return await self._execute_task(task, *args, **kwargs)

    async def execute_many(self, tasks, *args, **kwargs):
        return await asyncio.gather(*(self._execute_task(task, **kwargs) for task in tasks))


class AugmentedLLM:
    def __init__(self, agent, executor: Executor):
        self.agent = agent
        self.executor = executor

    async def call_tool(self, tool_name, tool_args):
        return await self.agent.call_tool(tool_name, tool_args)

    async def execute_tool_call(self, tool_call):
        return await self.call_tool(tool_call.function.name, tool_call.function.arguments)

    async def generate(self, message, max_iterations=10):
        messages = [message]
        responses = []
        for i in range(max_iterations):
            response = await self.executor.execute(CompletionTasks.request_completion_task, {"messages": messages})
            if isinstance(response, BaseException):
                break
            choice = response.choices[0]
            message = choice.message
            responses.append(message)
            messages.append(message)
            if choice.finish_reason in ["tool_calls", "function_call"] and message.tool_calls:
                tool_tasks = [
                    functools.partial(self.execute_tool_call, tool_call=tool_call)
                    for tool_call in message.tool_calls
                ]
                tool_results = await self.executor.execute_many(tool_tasks)
                for result in tool_results:
                    if result is not None:
                        messages.append(result)
            elif choice.finish_reason == "stop":
                break
        return responses
