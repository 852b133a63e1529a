# Reduced from praisonaiagents==1.7.17 praisonaiagents/llm/openai_client.py:1954-2326
# (OpenAIClient.chat_completion_with_tools): the loop's condition is the bound (while
# iteration_count < max_iterations, 2048); after a step's tools the body tests the same bound
# again only to record why the loop will end (if iteration_count >= max_iterations:
# self._last_stop_reason = "max_steps", 2308-2309), and the condition then ends the loop. What
# happens at the bound is that stop reason, not a silent end.
import json


class OpenAIClient:
    def __init__(self, client):
        self.sync_client = client
        self._last_stop_reason = None

    def chat_completion_with_tools(self, messages, tools=None, execute_tool_fn=None, max_iterations: int = 10):
        iteration_count = 0
        final_response = None
        self._last_stop_reason = "completed"
        while iteration_count < max_iterations:
            final_response = self.sync_client.chat.completions.create(messages=messages, tools=tools)
            tool_calls = final_response.choices[0].message.tool_calls
            if tool_calls and execute_tool_fn:
                messages.append({"role": "assistant", "tool_calls": tool_calls})
                for tool_call in tool_calls:
                    function_name = tool_call.function.name
                    arguments = json.loads(tool_call.function.arguments)
                    tool_result = execute_tool_fn(function_name, arguments)
                    messages.append({"role": "tool", "tool_call_id": tool_call.id, "content": json.dumps(tool_result)})
                iteration_count += 1
                if iteration_count >= max_iterations:
                    self._last_stop_reason = "max_steps"
            else:
                break
        return final_response
