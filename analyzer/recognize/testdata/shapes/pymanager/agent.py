# Modelled on swarms==16.0.3: the agent builds helper objects that keep it
# (structs/agent.py:626-627, self.tool_manager = ToolManager(agent=self); agents/
# tool_manager.py:68-69, def __init__(self, agent: Any): self.agent = agent) and reach its
# fields through a local (agent = self.agent; agent.tool_struct...); the model's response is
# handed to the manager (tool_manager.py:490-560 handle_tool_calls; swarms has two more
# wrappers on the way, tool_execution_retry 797-842 and execute_tools 696-760, which are
# deeper than lifeline follows a result); the executor submits a bound method per call
# (tools/base_tool.py:1388-1432: executor.submit(
# self._execute_single_function_call, call)), which looks the function up by name
# (base_tool.py:1433-1470: func = self.function_map[name]; func(**arguments)). The loop is
# written here with its tool results in the history the next model call reads, the way
# Agent._run (structs/agent.py:1113-1250) feeds short_memory.
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any


class BaseTool:
    def __init__(self, tools=None):
        self.tools = tools or []
        self.function_map = {t.__name__: t for t in self.tools}

    def execute_function_calls_from_api_response(self, api_response, sequential: bool = False, max_workers: int = 4):
        function_calls = self._extract_function_calls_from_response(api_response)
        results = [None] * len(function_calls)
        with ThreadPoolExecutor(max_workers=max_workers) as executor:
            future_to_index = {}
            for i, call in enumerate(function_calls):
                future = executor.submit(self._execute_single_function_call, call)
                future_to_index[future] = i
            for future in as_completed(future_to_index):
                results[future_to_index[future]] = future.result()
        return results

    def _extract_function_calls_from_response(self, response):
        function_calls = []
        for tool_call in response.get("tool_calls", []):
            function_calls.append({"name": tool_call["function"]["name"], "arguments": tool_call["function"]["arguments"]})
        return function_calls

    def _execute_single_function_call(self, call):
        name = call.get("name")
        arguments = call.get("arguments", {})
        if not name:
            raise ValueError("Function call missing name")
        if self.function_map and name in self.function_map:
            func = self.function_map[name]
        else:
            raise KeyError(f"Function {name} not found")
        return func(**arguments)


class ToolManager:
    def __init__(self, agent: Any):
        self.agent = agent

    def handle_tool_calls(self, response, loop_count):
        agent = self.agent
        if response is None:
            return None
        if agent.tools:
            output = agent.tool_struct.execute_function_calls_from_api_response(response)
            agent._last_tool_output = output
            agent.short_memory.append({"role": "tool", "content": str(output)})
        return None


class Agent:
    def __init__(self, llm=None, max_loops=1, tools=None):
        self.llm = llm
        self.max_loops = max_loops
        self.tools = tools
        self.tool_struct = BaseTool(tools)
        self.tool_manager = ToolManager(agent=self)
        self.short_memory = []

    def run(self, task):
        self.short_memory.append({"role": "user", "content": task})
        loop_count = 0
        while self.max_loops == "auto" or loop_count < self.max_loops:
            loop_count += 1
            response = self.llm.run(task=task, messages=self.short_memory)
            self.short_memory.append({"role": "assistant", "content": response})
            if not response.get("tool_calls"):
                break
            self.tool_manager.handle_tool_calls(response, loop_count)
        return self.short_memory
