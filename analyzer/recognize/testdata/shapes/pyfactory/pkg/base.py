from .constants import DEFAULT_MAX_CHAT_COMPLETIONS
from .events import EventStream


class AbstractRunner(EventStream):
    def __init__(self):
        super().__init__()
        self.messages = []

    def _create_chat_completion(self, client, params, options):
        return client.chat.completions.create(**params)

    def _add_message(self, m):
        self.messages.append(m)

    def _run_tools(self, client, params, options=None):
        options = options or {}
        max_chat_completions = options.get("max_chat_completions", DEFAULT_MAX_CHAT_COMPLETIONS)
        functions_by_name = {}
        for f in params["tools"]:
            functions_by_name[f.name] = f
        for _ in range(max_chat_completions):
            completion = self._create_chat_completion(client, {**params, "messages": list(self.messages)}, options)
            message = completion.choices[0].message
            self._add_message(message)
            if not message.tool_calls:
                return
            for tc in message.tool_calls:
                fn = functions_by_name.get(tc.function.name)
                if fn is None:
                    self._add_message({"role": "tool", "tool_call_id": tc.id, "content": "no such function"})
                    continue
                content = fn(tc.function.arguments)
                self._add_message({"role": "tool", "tool_call_id": tc.id, "content": str(content)})

