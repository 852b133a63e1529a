# Modelled on qwen-agent==0.0.34 qwen_agent/agents/fncall_agent.py:73-108: a countdown bound
# (while True and num_llm_calls_available > 0, decremented first), the model's stream drained
# into the loop variable output, which outlives the loop and holds the whole reply; its
# messages' tool calls detected and run by name; a flag (used_any_tool) left false when no
# message asked for a tool ends the loop.
from pkg import Agent
from pkg.settings import MAX_LLM_CALL_PER_RUN


class FnCallAgent(Agent):

    def _run(self, messages, lang='en', **kwargs):
        num_llm_calls_available = MAX_LLM_CALL_PER_RUN
        response = []
        while True and num_llm_calls_available > 0:
            num_llm_calls_available -= 1

            extra_generate_cfg = {'lang': lang}
            output_stream = self._call_llm(messages=messages,
                                           functions=[func.function for func in self.function_map.values()],
                                           extra_generate_cfg=extra_generate_cfg)
            output = []
            for output in output_stream:
                if output:
                    yield response + output
            if output:
                response.extend(output)
                messages.extend(output)
                used_any_tool = False
                for out in output:
                    use_tool, tool_name, tool_args, _ = self._detect_tool(out)
                    if use_tool:
                        tool_result = self._call_tool(tool_name, tool_args, messages=messages, **kwargs)
                        fn_msg = {'role': 'function', 'name': tool_name, 'content': tool_result}
                        messages.append(fn_msg)
                        response.append(fn_msg)
                        yield response
                        used_any_tool = True
                if not used_any_tool:
                    break
        yield response
