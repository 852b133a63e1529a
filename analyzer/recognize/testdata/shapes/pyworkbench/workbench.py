# Reduced from autogen-core==0.7.5 autogen_core/tools/_workbench.py (the abstract Workbench)
# and _static_workbench.py:94-124 (StaticWorkbench.call_tool looks the tool up by the name it
# is handed and runs it: tool.run_json, :116).
from abc import ABC, abstractmethod


class ToolResult:
    def __init__(self, name, result, is_error=False):
        self.name = name
        self.result = result
        self.is_error = is_error

    def to_text(self):
        return "\n".join(str(r) for r in self.result)


class Workbench(ABC):
    @abstractmethod
    async def list_tools(self):
        ...

    @abstractmethod
    async def call_tool(self, name, arguments=None, cancellation_token=None, call_id=None):
        ...


class StaticWorkbench(Workbench):
    def __init__(self, tools):
        self._tools = tools

    async def list_tools(self):
        return [{"name": tool.name, "description": tool.description} for tool in self._tools]

    async def call_tool(self, name, arguments=None, cancellation_token=None, call_id=None):
        tool = next((tool for tool in self._tools if tool.name == name), None)
        if tool is None:
            return ToolResult(name=name, result=[f"Tool {name} not found."], is_error=True)
        try:
            result = await tool.run_json(arguments, cancellation_token, call_id=call_id)
            return ToolResult(name=name, result=[tool.return_value_as_string(result)], is_error=False)
        except Exception as e:
            return ToolResult(name=name, result=[str(e)], is_error=True)
