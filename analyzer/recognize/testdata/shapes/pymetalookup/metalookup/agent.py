# Reduced from upsonic==0.77.3 upsonic/agent/agent.py: the tool executor of a recursion on the
# model's reply consults each tool's DEFINITION by name for its metadata (tool_defs.get(
# tool_call.tool_name) at 2358, 2373, 2455, 2514: is it sequential, its description and schema
# for a policy check) and runs the tool elsewhere, by handing the name to the helper that finds
# the manager owning it (self._resolve_tool_manager(tool_call.tool_name).execute_tool(...),
# 2412-2413 and 2550-2551); tools not marked sequential run under asyncio.gather (2594). The
# definition lookup selects nothing that runs: the name handed to _resolve_tool_manager is the
# dispatch, execute_tool the tool call.
import asyncio


class ToolCallPart:
    def __init__(self, tool_name, args, tool_call_id):
        self.tool_name = tool_name
        self.args = args
        self.tool_call_id = tool_call_id


class ToolReturnPart:
    def __init__(self, tool_name, content, tool_call_id):
        self.tool_name = tool_name
        self.content = content
        self.tool_call_id = tool_call_id


class ModelRequest:
    def __init__(self, parts):
        self.parts = parts


class Agent:
    def __init__(self, model, managers, tool_call_limit: int = 100):
        self.model = model
        self.managers = managers
        self.tool_call_limit = tool_call_limit
        self._tool_call_count = 0

    async def do_async(self, prompt):
        messages = [ModelRequest(parts=[prompt])]
        response = await self.model.request(messages=messages)
        final = await self._handle_model_response(response, messages)
        return final

    def _resolve_tool_manager(self, tool_name):
        for manager in self.managers:
            if manager.has_tool(tool_name):
                return manager
        return self.managers[0]

    async def _execute_tool_calls(self, tool_calls):
        if not tool_calls:
            return []
        if self.tool_call_limit and self._tool_call_count >= self.tool_call_limit:
            return [ToolReturnPart(tc.tool_name, "Tool call limit reached.", tc.tool_call_id) for tc in tool_calls]
        tool_defs = {td.name: td for td in self.get_tool_defs()}
        sequential_calls = []
        parallel_calls = []
        for tool_call in tool_calls:
            tool_def = tool_defs.get(tool_call.tool_name)
            if tool_def and tool_def.sequential:
                sequential_calls.append(tool_call)
            else:
                parallel_calls.append(tool_call)
        results = []
        for tool_call in sequential_calls:
            target_manager = self._resolve_tool_manager(tool_call.tool_name)
            result = await target_manager.execute_tool(tool_name=tool_call.tool_name, args=tool_call.args)
            self._tool_call_count += 1
            results.append(ToolReturnPart(tool_call.tool_name, result, tool_call.tool_call_id))

        async def execute_single_tool(tool_call):
            tool_def = tool_defs.get(tool_call.tool_name)
            info = {"name": tool_call.tool_name, "description": tool_def.description if tool_def else ""}
            if not await self.policy_allows(info):
                return ToolReturnPart(tool_call.tool_name, "blocked", tool_call.tool_call_id)
            target_manager = self._resolve_tool_manager(tool_call.tool_name)
            result = await target_manager.execute_tool(tool_name=tool_call.tool_name, args=tool_call.args)
            return ToolReturnPart(tool_call.tool_name, result, tool_call.tool_call_id)

        if parallel_calls:
            parallel_results = await asyncio.gather(*[execute_single_tool(tc) for tc in parallel_calls])
            self._tool_call_count += len(parallel_calls)
            results.extend(parallel_results)
        return results

    async def _handle_model_response(self, response, messages):
        tool_calls = [part for part in response.parts if isinstance(part, ToolCallPart)]
        if tool_calls:
            tool_results = await self._execute_tool_calls(tool_calls)
            messages.append(response)
            messages.append(ModelRequest(parts=tool_results))
            follow_up_response = await self.model.request(messages=messages)
            return await self._handle_model_response(follow_up_response, messages)
        return response
