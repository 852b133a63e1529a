# A template run: the public run drains the generator of a hook every agent kind implements
# (qwen-agent==0.0.34 qwen_agent/agent.py:78-131: for rsp in self._run(messages=new_messages,
# **kwargs)); the model and tool helpers of the base class (agent.py:150-259).
from abc import ABC, abstractmethod


class Agent(ABC):

    def __init__(self, function_list=None, llm=None):
        self.llm = llm
        self.function_map = {}
        for tool in function_list or []:
            self.function_map[tool.name] = tool

    def run(self, messages, **kwargs):
        new_messages = [dict(m) for m in messages]
        for rsp in self._run(messages=new_messages, **kwargs):
            yield rsp

    @abstractmethod
    def _run(self, messages, lang='en', **kwargs):
        raise NotImplementedError

    def _call_llm(self, messages, functions=None, stream=True):
        return self.llm.chat(messages=messages, functions=functions, stream=stream)

    def _call_tool(self, tool_name, tool_args='{}', **kwargs):
        if tool_name not in self.function_map:
            return f'Tool {tool_name} does not exists.'
        return self.function_map[tool_name].call(tool_args, **kwargs)

    def _detect_tool(self, message):
        func_name = None
        func_args = None
        if message.function_call:
            func_name = message.function_call.name
            func_args = message.function_call.arguments
        return (func_name is not None), func_name, func_args, message.content or ''
