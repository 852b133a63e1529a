# Two agent kinds with a turn loop of their own in _run (qwen-agent==0.0.34
# qwen_agent/agents/fncall_agent.py:73-108, react_chat.py:73-107, the countdown of a settings
# constant) and one without (an echo).
from qa import Agent

MAX_LLM_CALL_PER_RUN = 20


class FnCallAgent(Agent):

    def _run(self, messages, lang='en', **kwargs):
        num_llm_calls_available = MAX_LLM_CALL_PER_RUN
        response = []
        while True and num_llm_calls_available > 0:
            num_llm_calls_available -= 1
            output_stream = self._call_llm(messages=messages,
                                           functions=[func.function for func in self.function_map.values()])
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


class ReActChat(Agent):

    def _run(self, messages, lang='en', **kwargs):
        num_llm_calls_available = MAX_LLM_CALL_PER_RUN
        response = []
        while True and num_llm_calls_available > 0:
            num_llm_calls_available -= 1
            output_stream = self._call_llm(messages=messages, stream=True)
            output = []
            for output in output_stream:
                if output:
                    yield response + output
            if output:
                response.extend(output)
                used_any_tool = False
                for out in output:
                    use_tool, tool_name, tool_args, _ = self._detect_tool(out)
                    if use_tool:
                        observation = self._call_tool(tool_name, tool_args)
                        messages.append({'role': 'user', 'content': 'Observation: ' + observation})
                        used_any_tool = True
                if not used_any_tool:
                    break
        yield response


class Echo(Agent):

    def _run(self, messages, lang='en', **kwargs):
        yield [{'role': 'assistant', 'content': messages[-1]['content']}]
