# The async twin: the model runs when the response is drained (async for, __aiter__); the
# tools of one response run as tasks gathered together.
import asyncio


class Prompt:
    def __init__(self, prompt, tools=None, tool_results=None):
        self.prompt = prompt
        self.tools = tools or []
        self.tool_results = tool_results or []


class AsyncResponse:
    def __init__(self, prompt, model, conversation=None):
        self.prompt = prompt
        self.model = model
        self.conversation = conversation
        self._chunks = []
        self._tool_calls = []
        self._done = False

    async def __aiter__(self):
        async for chunk in self.model.execute(self.prompt, response=self, conversation=self.conversation):
            self._chunks.append(chunk)
            yield chunk
        self._done = True

    async def _force(self):
        if not self._done:
            async for _ in self:
                pass

    async def tool_calls(self):
        await self._force()
        return self._tool_calls

    async def execute_tool_calls(self):
        tools_by_name = {tool.name: tool for tool in self.prompt.tools}
        tasks = []
        for tc in await self.tool_calls():
            tool = tools_by_name.get(tc.name)
            if tool is None:
                continue
            tasks.append(asyncio.create_task(tool.implementation(**tc.arguments)))
        outputs = await asyncio.gather(*tasks)
        results = []
        for output in outputs:
            results.append({"output": output})
        return results


class AsyncChainResponse:
    def __init__(self, prompt, model, conversation=None, chain_limit=10):
        self.prompt = prompt
        self.model = model
        self.conversation = conversation
        self.chain_limit = chain_limit

    async def responses(self):
        prompt = self.prompt
        count = 0
        current = AsyncResponse(prompt, self.model, conversation=self.conversation)
        while current:
            count += 1
            yield current
            if self.chain_limit and count >= self.chain_limit:
                raise ValueError("Chain limit reached")
            tool_results = await current.execute_tool_calls()
            if tool_results:
                current = AsyncResponse(Prompt("", tools=prompt.tools, tool_results=tool_results), self.model, conversation=self.conversation)
            else:
                break
