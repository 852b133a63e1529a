# Modelled on qwen-agent==0.0.34 qwen_agent/agent.py:150-210 and
# qwen_agent/agents/react_chat.py:73-107, 145-165 (ReActChat): the model's text streamed into
# the loop variable output (it outlives the loop, each chunk the whole reply so far); the
# reply parsed by the agent's _detect_tool into (has_action, action, action_input, thought),
# the loop left when there is no action (if not has_action: break); the action run by name
# through _call_tool; its observation appended in place to the last message's text, the
# next call's input; a countdown bound from a module constant.
MAX_LLM_CALL_PER_RUN = 8


class ReActChat:

    def __init__(self, function_list, llm):
        self.llm = llm
        self.function_map = {tool.name: tool for tool in function_list}

    def run(self, messages, **kwargs):
        for rsp in self._run(messages, **kwargs):
            yield rsp

    def _call_llm(self, messages, stream=True):
        return self.llm.chat(messages=messages, stream=stream)

    def _call_tool(self, tool_name, tool_args='{}', **kwargs):
        if tool_name not in self.function_map:
            return f'Tool {tool_name} does not exists.'
        tool = self.function_map[tool_name]
        return tool.call(tool_args, **kwargs)

    def _run(self, messages, **kwargs):
        text_messages = messages
        num_llm_calls_available = MAX_LLM_CALL_PER_RUN
        response = 'Thought: '
        while num_llm_calls_available > 0:
            num_llm_calls_available -= 1

            output = []
            for output in self._call_llm(messages=text_messages):
                if output:
                    yield [response + output[-1].content]

            if output:
                response += output[-1].content

            has_action, action, action_input, thought = self._detect_tool(output[-1].content)
            if not has_action:
                break

            observation = self._call_tool(action, action_input, messages=messages, **kwargs)
            observation = f'\nObservation: {observation}\nThought: '
            response += observation
            yield [response]

            text_messages[-1].content += thought + f'\nAction: {action}\nAction Input: {action_input}' + observation

    def _detect_tool(self, text):
        special_func_token = '\nAction:'
        special_args_token = '\nAction Input:'
        special_obs_token = '\nObservation:'
        func_name, func_args = None, None
        i = text.rfind(special_func_token)
        j = text.rfind(special_args_token)
        k = text.rfind(special_obs_token)
        if 0 <= i < j:
            if k < j:
                text = text.rstrip() + special_obs_token
            k = text.rfind(special_obs_token)
            func_name = text[i + len(special_func_token):j].strip()
            func_args = text[j + len(special_args_token):k].strip()
            text = text[:i]
        return (func_name is not None), func_name, func_args, text
