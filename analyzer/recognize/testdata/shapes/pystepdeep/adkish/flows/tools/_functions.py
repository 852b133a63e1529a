"""Runs a reply's function calls: one task per call, gathered."""

import asyncio

from ._caller import call_tool, prepare_single


async def _run_calls(ctx, function_calls, tools_dict):
    tasks = [asyncio.create_task(prepare_single(ctx, function_call, tools_dict)) for function_call in function_calls]
    prepared = await asyncio.gather(*tasks)
    results = await asyncio.gather(*[call_tool(p, ctx) for p in prepared])
    return {"parts": results}


async def handle_function_call_list_async(ctx, function_calls, tools_dict):
    return await _run_calls(ctx, function_calls, tools_dict)


async def handle_function_calls_async(ctx, function_call_event, tools_dict):
    from .. import functions

    function_calls = function_call_event.get_function_calls()
    return await functions.handle_function_call_list_async(ctx, function_calls, tools_dict)
