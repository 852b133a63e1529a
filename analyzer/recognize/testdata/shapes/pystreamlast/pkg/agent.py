# Modelled on qwen-agent==0.0.34 qwen_agent/agent.py:150-259 (Agent._call_llm returns the
# model's stream, each chunk the whole reply so far; _call_tool looks the tool up by name;
# _detect_tool reads one message's function call).
from abc import ABC


class Agent(ABC):

    def __init__(self, function_list=None, llm=None):
        self.llm = llm
        self.function_map = {}
        for tool in function_list or []:
            self.function_map[tool.name] = tool

    def run(self, messages, **kwargs):
        for rsp in self._run(messages=messages, **kwargs):
            yield rsp

    def _run(self, messages, lang='en', **kwargs):
        raise NotImplementedError

    def _call_llm(self, messages, functions=None, stream=True, extra_generate_cfg=None):
        return self.llm.chat(messages=messages, functions=functions, stream=stream,
                             extra_generate_cfg=extra_generate_cfg)

    def _call_tool(self, tool_name, tool_args='{}', **kwargs):
        if tool_name not in self.function_map:
            return f'Tool {tool_name} does not exists.'
        tool = self.function_map[tool_name]
        try:
            tool_result = tool.call(tool_args, **kwargs)
        except Exception as ex:
            return str(ex)
        return tool_result

    def _detect_tool(self, message):
        func_name = None
        func_args = None

        if message.function_call:
            func_call = message.function_call
            func_name = func_call.name
            func_args = func_call.arguments
        text = message.content
        if not text:
            text = ''

        return (func_name is not None), func_name, func_args, text
