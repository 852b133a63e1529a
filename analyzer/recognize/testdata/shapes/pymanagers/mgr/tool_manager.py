# Modelled on swarms==16.0.3 swarms/agents/tool_manager.py (setup_tools 71-86,
# handle_tool_calls 490-560, execute_tools 696-760, tool_execution_retry 797-842): the
# executor is stored on the agent (agent.tool_struct = BaseTool(...)), the reply's calls are
# filtered first (a helper handed the reply, returning what is left), then run with retries
# (a for-range retry loop that returns on success).
import json
import logging
from typing import Any, Optional

from pydantic import BaseModel

from mgr.base_tool import BaseTool

logger = logging.getLogger(__name__)


class ToolManager:
    def __init__(self, agent: Any):
        self.agent = agent

    def setup_tools(self) -> BaseTool:
        agent = self.agent
        agent.tool_struct = BaseTool(tools=agent.tools)
        return agent.tool_struct

    def parse_response(self, response: Any) -> Any:
        if isinstance(response, dict):
            if "function" in response:
                return [response]
            return json.dumps(response)
        if isinstance(response, list) and response and isinstance(response[0], BaseModel):
            return [item.model_dump() for item in response]
        return response

    def _run_tool_search_calls(self, response: list) -> list:
        agent = self.agent
        remaining = []
        for call in response:
            if call.get("name") == "search_tools":
                agent.tool_struct.search(call)
            else:
                remaining.append(call)
        return remaining

    def handle_tool_calls(self, response: Any, loop_count: int) -> None:
        if isinstance(response, list):
            response = self._run_tool_search_calls(response)
            if not response:
                return None
        self.tool_execution_retry(response, loop_count)

    def execute_tools(self, response: Any, loop_count: int) -> None:
        agent = self.agent
        if response is None:
            return
        output = agent.tool_struct.execute_function_calls_from_api_response(response)
        agent._last_tool_output = output

    def tool_execution_retry(self, response: Any, loop_count: int) -> Any:
        agent = self.agent
        if response is None:
            return None
        attempts = 3
        last_error: Optional[Exception] = None
        for attempt in range(1, attempts + 1):
            try:
                self.execute_tools(response=response, loop_count=loop_count)
                return getattr(agent, "_last_tool_output", None)
            except Exception as e:
                last_error = e
                logger.error(f"tool execution failed on attempt {attempt}: {e}")
        raise RuntimeError(f"tools failed after {attempts} attempts: {last_error}")
