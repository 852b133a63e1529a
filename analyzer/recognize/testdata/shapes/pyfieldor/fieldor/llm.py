# Reduced from praisonaiagents==1.7.17 praisonaiagents/llm/llm.py: the constructor keeps the
# limit as `self.max_iter = max_iter or 20` (742, the keyword's default is None) and the loop's
# function reads it into a local through the caller's option, `max_iterations =
# kwargs.pop("max_iterations", self.max_iter)` (3424), tested by `while iteration_count <
# max_iterations` (3438). The default is the literal the field falls back to, not the None.
import json


class LLM:
    def __init__(self, model, max_iter=None):
        self.model = model
        self.max_iter = max_iter or 20

    def get_response(self, messages, execute_tool_fn=None, **kwargs):
        max_iterations = kwargs.pop("max_iterations", self.max_iter)
        iteration_count = 0
        while iteration_count < max_iterations:
            resp = self.client.chat.completions.create(messages=messages)
            tool_calls = resp.choices[0].message.tool_calls
            if not tool_calls:
                return resp
            for tool_call in tool_calls:
                out = execute_tool_fn(tool_call.function.name, json.loads(tool_call.function.arguments))
                messages.append({"role": "tool", "content": json.dumps(out)})
            iteration_count += 1
        return None
