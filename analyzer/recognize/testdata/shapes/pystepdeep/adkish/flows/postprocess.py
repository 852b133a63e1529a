"""Handles a model response's function calls (reached through the package's functions module)."""

from . import functions


async def postprocess_function_calls(ctx, function_call_event, tools_dict):
    response_event = await functions.handle_function_calls_async(ctx, function_call_event, tools_dict)
    if response_event:
        yield response_event
