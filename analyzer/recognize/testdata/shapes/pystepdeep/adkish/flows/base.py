"""A step loop of async generators whose tools are looked up by name six helpers below the
step: run_async drains one step's events and leaves on a predicate of the last one; the step
relays the model's stream and hands each response to a postprocessing generator, whose
function calls travel through re-exports, a function-level import and a task per call to the
lookup by name. The model calls are counted in a cost manager below the step, which raises
past the configured limit."""

from contextlib import aclosing as Aclosing

from ..agents.context import Context
from .postprocess import postprocess_function_calls


class Flow:
    async def run_async(self, ctx: Context):
        while True:
            if ctx.is_aborted is True:
                break
            last_event = None
            async with Aclosing(self._run_one_step_async(ctx)) as agen:
                async for event in agen:
                    last_event = event
                    yield event
            if not last_event or last_event.is_final_response():
                break

    async def _run_one_step_async(self, ctx: Context):
        request = {"contents": list(ctx.events), "tools": ctx.tools}
        async with Aclosing(self._call_llm_async(ctx, request)) as agen:
            async for response in agen:
                async with Aclosing(self._postprocess_async(ctx, response)) as agen:
                    async for event in agen:
                        yield event

    async def _call_llm_async(self, ctx: Context, request):
        ctx.increment_llm_call_count()
        async for response in ctx.llm.generate_content_async(request):
            yield response

    async def _postprocess_async(self, ctx: Context, response):
        ctx.events.append(response)
        yield response
        if response.get_function_calls():
            async with Aclosing(self._handle_function_calls_async(ctx, response)) as agen:
                async for event in agen:
                    yield event

    async def _handle_function_calls_async(self, ctx: Context, function_call_event):
        async with Aclosing(postprocess_function_calls(ctx, function_call_event, ctx.tools)) as agen:
            async for event in agen:
                yield event
