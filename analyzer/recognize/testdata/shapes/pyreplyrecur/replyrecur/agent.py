# Reduced from upsonic==0.77.3 upsonic/agent/agent.py: the agent's tool loop is a recursion on
# the model's reply. The caller asks the model once and hands the reply to
# _handle_model_response (2662); that method takes the reply's tool-call parts (2706), returns
# the reply when it has none (2717), runs them all through _execute_tool_calls (2779, a loop
# over the list that looks each tool up by name, 2311-2357), appends reply and results to the
# messages, asks the model again (2920) and recurses on the new reply (2937). The bound is a
# count of tool calls against tool_call_limit (default 100, 262), checked before the tools run
# (2328).


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
    def __init__(self, model, tools, tool_call_limit: int = 100):
        self.model = model
        self.tools = {t.name: t for t in tools}
        self.tool_call_limit = tool_call_limit
        self._tool_call_count = 0

    async def do_async(self, prompt):
        messages = [ModelRequest(parts=[prompt])]
        response = await self.model.request(messages=messages)
        final = await self._handle_model_response(response, messages)
        return final

    async def _execute_tool_calls(self, tool_calls):
        results = []
        if not tool_calls:
            return results
        if self.tool_call_limit and self._tool_call_count >= self.tool_call_limit:
            for tool_call in tool_calls:
                results.append(ToolReturnPart(tool_call.tool_name, "Tool call limit reached.", tool_call.tool_call_id))
            return results
        for tool_call in tool_calls:
            tool = self.tools.get(tool_call.tool_name)
            if tool is None:
                results.append(ToolReturnPart(tool_call.tool_name, "unknown tool", tool_call.tool_call_id))
                continue
            output = await tool.execute(**tool_call.args)
            self._tool_call_count += 1
            results.append(ToolReturnPart(tool_call.tool_name, output, tool_call.tool_call_id))
        return results

    async def _handle_model_response(self, response, messages):
        tool_calls = [part for part in response.parts if isinstance(part, ToolCallPart)]
        regular_tool_calls = [tc for tc in tool_calls if tc.tool_name != "final_result"]
        if tool_calls and not regular_tool_calls:
            return response
        if regular_tool_calls:
            tool_results = await self._execute_tool_calls(regular_tool_calls)
            messages.append(response)
            messages.append(ModelRequest(parts=tool_results))
            follow_up_response = await self.model.request(messages=messages)
            return await self._handle_model_response(follow_up_response, messages)
        return response
