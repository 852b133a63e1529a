# Excerpt of llm==0.36 llm/models.py (Response 1875-2098, ChainResponse 2924-3012,
# Conversation.chain 900-932; trimmed: logging, attachments, callbacks' checks, async twins):
# the response's iterator drains a generator helper that binds the model's stream in each
# branch of an isinstance test; the tool executor takes an explicit list of calls and asks
# the lazy getter only when none was given; the chain first resumes calls left pending, then
# loops. (Coroutine tools run under asyncio.run at 1969 are left out.)

class Model:
    def execute(self, prompt, stream, response, conversation):
        pass


class KeyModel:
    def execute(self, prompt, stream, response, conversation, key):
        pass


class Prompt:
    def __init__(self, prompt, model, tools=None, tool_results=None, messages=None):
        self.prompt = prompt
        self.model = model
        self.tools = tools or []
        self.tool_results = tool_results or []
        self.messages = messages or []


class Response:
    def __init__(self, prompt, model, stream, conversation=None, key=None):
        self.prompt = prompt
        self.model = model
        self.stream = stream
        self.conversation = conversation
        self._key = key
        self._chunks = []
        self._tool_calls = []
        self._done = False

    def _force(self):
        if not self._done:
            list(self)

    def execute_tool_calls(self, *, before_call=None, after_call=None, tool_calls_list=None):
        tool_results = []
        tools_by_name = {tool.name: tool for tool in self.prompt.tools}
        if tool_calls_list is None:
            tool_calls_list = self.tool_calls()
        for tool_call in tool_calls_list:
            tool = tools_by_name.get(tool_call.name)
            if tool is None:
                tool_results.append({"name": tool_call.name, "output": "Error: no such tool"})
                continue
            try:
                result = tool.implementation(**tool_call.arguments)
            except Exception as ex:
                result = f"Error: {ex}"
            tool_results.append({"name": tool_call.name, "output": result})
        return tool_results

    def tool_calls(self):
        self._force()
        return self._tool_calls

    def _iter_events(self):
        if isinstance(self.model, Model):
            generator = self.model.execute(self.prompt, stream=self.stream, response=self, conversation=self.conversation)
        elif isinstance(self.model, KeyModel):
            generator = self.model.execute(
                self.prompt, stream=self.stream, response=self, conversation=self.conversation, key=self._key
            )
        else:
            raise TypeError("self.model must be a Model or KeyModel")
        for chunk in generator:
            yield chunk

    def __iter__(self):
        if self._done:
            yield from self._chunks
            return
        for chunk in self._iter_events():
            self._chunks.append(chunk)
            yield chunk
        self._done = True


def _chain_for_tool_results(response, tool_results):
    return list(response.prompt.messages) + [{"role": "tool", "content": r["output"]} for r in tool_results]


class ChainResponse:
    def __init__(self, prompt, model, stream, conversation=None, chain_limit=10):
        self.prompt = prompt
        self.model = model
        self.stream = stream
        self.conversation = conversation
        self.chain_limit = chain_limit

    def _pending_tool_calls(self):
        if not self.prompt.tools:
            return []
        return [m for m in self.prompt.messages if m.get("pending")]

    def responses(self):
        prompt = self.prompt
        count = 0
        initial_response = Response(prompt, self.model, self.stream, conversation=self.conversation)
        pending_tool_calls = self._pending_tool_calls()
        if pending_tool_calls:
            tool_results = initial_response.execute_tool_calls(tool_calls_list=pending_tool_calls)
            initial_response = Response(
                Prompt("", self.model, tools=prompt.tools, tool_results=tool_results),
                self.model,
                self.stream,
                conversation=self.conversation,
            )
        current_response = initial_response
        while current_response:
            count += 1
            yield current_response
            if self.chain_limit and count >= self.chain_limit:
                raise ValueError(f"Chain limit of {self.chain_limit} exceeded.")
            tool_results = current_response.execute_tool_calls()
            if tool_results:
                next_chain = _chain_for_tool_results(current_response, tool_results)
                current_response = Response(
                    Prompt("", self.model, tools=current_response.prompt.tools, tool_results=tool_results, messages=next_chain),
                    self.model,
                    stream=self.stream,
                    conversation=self.conversation,
                )
            else:
                current_response = None
                break


class Conversation:
    def __init__(self, model, chain_limit=None):
        self.model = model
        self.chain_limit = chain_limit

    def chain(self, prompt, *, tools=None, stream=True, chain_limit=None):
        return ChainResponse(
            Prompt(prompt, self.model, tools=tools),
            model=self.model,
            stream=stream,
            conversation=self,
            chain_limit=chain_limit if chain_limit is not None else self.chain_limit,
        )
