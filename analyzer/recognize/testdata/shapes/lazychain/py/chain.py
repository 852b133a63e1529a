# A response runs the model lazily, when it is consumed (the iterator protocol); a chain
# response asks for the next response while the last one's tool calls produce results.


class Prompt:
    def __init__(self, prompt, tools=None, tool_results=None):
        self.prompt = prompt
        self.tools = tools or []
        self.tool_results = tool_results or []


class Response:
    def __init__(self, prompt, model, stream, conversation=None):
        self.prompt = prompt
        self.model = model
        self.stream = stream
        self.conversation = conversation
        self._chunks = []
        self._tool_calls = []
        self._done = False

    def __iter__(self):
        for chunk in self.model.execute(self.prompt, stream=self.stream, response=self, conversation=self.conversation):
            self._chunks.append(chunk)
            yield chunk
        self._done = True

    def _force(self):
        if not self._done:
            list(self)

    def add_tool_call(self, tool_call):
        self._tool_calls.append(tool_call)

    def tool_calls(self):
        self._force()
        return self._tool_calls

    def text(self):
        self._force()
        return "".join(self._chunks)

    def execute_tool_calls(self, *, before_call=None, after_call=None):
        tools_by_name = {tool.name: tool for tool in self.prompt.tools}
        results = []
        for tc in self.tool_calls():
            tool = tools_by_name.get(tc.name)
            if tool is None:
                results.append({"name": tc.name, "output": "no such tool"})
                continue
            if before_call:
                before_call(tool, tc)
            output = tool.implementation(**tc.arguments)
            if after_call:
                after_call(tool, tc, output)
            results.append({"name": tc.name, "output": output})
        return results


class ChainResponse:
    def __init__(self, prompt, model, stream, conversation=None, chain_limit=10, before_call=None, after_call=None):
        self.prompt = prompt
        self.model = model
        self.stream = stream
        self.conversation = conversation
        self.chain_limit = chain_limit
        self.before_call = before_call
        self.after_call = after_call

    def responses(self):
        prompt = self.prompt
        count = 0
        current = Response(prompt, self.model, self.stream, conversation=self.conversation)
        while current:
            count += 1
            yield current
            if self.chain_limit and count >= self.chain_limit:
                raise ValueError("Chain limit of {} exceeded".format(self.chain_limit))
            tool_results = current.execute_tool_calls(before_call=self.before_call, after_call=self.after_call)
            if tool_results:
                current = Response(
                    Prompt("", tools=prompt.tools, tool_results=tool_results),
                    self.model,
                    self.stream,
                    conversation=self.conversation,
                )
            else:
                break

    def __iter__(self):
        for response in self.responses():
            yield from response

    def text(self):
        return "".join(self)


class Conversation:
    chain_limit = None

    def __init__(self, model):
        self.model = model
        self.chain_limit = None

    def chain(self, prompt, *, tools=None, stream=True, chain_limit=None, before_call=None, after_call=None):
        return ChainResponse(
            Prompt(prompt, tools=tools),
            model=self.model,
            stream=stream,
            conversation=self,
            chain_limit=chain_limit if chain_limit is not None else self.chain_limit,
            before_call=before_call,
            after_call=after_call,
        )
