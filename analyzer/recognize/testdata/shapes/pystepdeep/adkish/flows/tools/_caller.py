"""Looks each call's tool up by name and runs it."""


def _get_tool(function_call, tools_dict):
    tool_name = function_call.name
    if tool_name not in tools_dict:
        raise ValueError(f"tool {tool_name} not found")
    return tools_dict[tool_name]


async def prepare_single(ctx, function_call, tools_dict):
    tool = _get_tool(function_call, tools_dict)
    return (tool, function_call)


async def call_tool(prepared, ctx):
    tool, function_call = prepared
    return await tool.run_async(args=function_call.args, ctx=ctx)
