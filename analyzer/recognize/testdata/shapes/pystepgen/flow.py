"""A step loop of async generators: each pass drains one step's events through an
`async with Aclosing(...) as agen` block and leaves on a predicate of the last event it
yielded; the step reuses the name agen for its preprocessing, its model call and its
postprocessing; the model call is two generators deep; the reply's function calls reach the
tool lookup by name through a helper."""


from contextlib import aclosing as Aclosing


class Event:
    def __init__(self, content, partial=False):
        self.content = content
        self.partial = partial

    def function_calls(self):
        return [p["call"] for p in self.content["parts"] if "call" in p]

    def is_final_response(self):
        return not self.function_calls()


class Flow:
    def __init__(self, llm, tools):
        self.llm = llm
        self.tools = tools
        self.processors = []

    async def run_async(self, ctx):
        while True:
            if ctx.is_aborted:
                break
            last_event = None
            async with Aclosing(self._run_one_step_async(ctx)) as agen:
                async for event in agen:
                    last_event = event
                    yield event
            if not last_event or last_event.is_final_response() or last_event.partial:
                break

    async def _run_one_step_async(self, ctx):
        request = {"contents": list(ctx.events), "tools": self.tools}
        async with Aclosing(self._preprocess_async(ctx, request)) as agen:
            async for event in agen:
                yield event
        async with Aclosing(self._call_llm_async(ctx, request)) as agen:
            async for response in agen:
                async with Aclosing(self._postprocess_async(ctx, response)) as agen:
                    async for event in agen:
                        yield event

    async def _preprocess_async(self, ctx, request):
        for processor in self.processors:
            async for event in processor.run_async(ctx, request):
                yield event

    async def _call_llm_async(self, ctx, request):
        async for response in self._generate(request):
            yield response

    async def _generate(self, request):
        async for response in self.llm.generate_content_async(request):
            yield response

    async def _postprocess_async(self, ctx, response):
        event = Event(response.content, response.partial)
        ctx.events.append(event)
        yield event
        calls = event.function_calls()
        if calls:
            reply = await handle_function_calls(ctx, calls, self.tools)
            ctx.events.append(reply)
            yield reply


async def handle_function_calls(ctx, calls, tools):
    parts = []
    for call in calls:
        tool = tools[call["name"]]
        result = await tool.run_async(call["args"], ctx)
        parts.append({"response": result, "id": call["id"]})
    return Event({"parts": parts})
