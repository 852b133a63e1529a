# Modelled on swarms==16.0.3 swarms/structs/agent.py (Agent.__init__ 300-420, _run 958-1316,
# call_llm 2324-2392, run 2436-2620, _dispatch 2621-2690): the turn loop's bound is an `or`
# of "auto" and a counter against a field (default 1); the model is reached through a
# manager object built with the agent itself (LLMManager(agent=self)), the tools through
# another (ToolManager(agent=self)), whose helpers write the agent's tool executor field;
# the loop leaves only on a user stopping condition.
from typing import Any, Callable, Optional

from mgr.llm_manager import LLMManager
from mgr.tool_manager import ToolManager
from somewhere.transforms import handle_transforms


class Agent:
    def __init__(
        self,
        llm: Any = None,
        max_loops: Optional[int] = 1,
        tools: Optional[list] = None,
        transforms: Any = None,
        stopping_condition: Optional[Callable[[str], bool]] = None,
    ):
        self.llm = llm
        self.max_loops = max_loops
        self.tools = tools
        self.transforms = transforms
        self.stopping_condition = stopping_condition
        self.print_on = True
        self.llm_manager = LLMManager(agent=self)
        self.tool_manager = ToolManager(agent=self)
        self.tool_manager.setup_tools()

    def pretty_print(self, response: Any, loop_count: int) -> None:
        print(f"[{loop_count}] {response}")

    def _check_stopping_condition(self, response: str) -> bool:
        return self.stopping_condition(response)

    def _run(self, task: str, *args, **kwargs) -> Any:
        loop_count = 0
        response = None
        while self.max_loops == "auto" or loop_count < self.max_loops:
            loop_count += 1

            task_prompt = None
            if self.transforms is not None:
                task_prompt = handle_transforms(transforms=self.transforms, task=task)

            response = self.call_llm(task=task_prompt, current_loop=loop_count)
            response = self.tool_manager.parse_response(response)
            if self.print_on and not isinstance(response, list):
                self.pretty_print(response, loop_count)
            self.tool_manager.handle_tool_calls(response, loop_count)

            if self.stopping_condition is not None and self._check_stopping_condition(response):
                break

        return response

    def call_llm(self, task: str, current_loop: int = 0, *args, **kwargs) -> Any:
        try:
            return self.llm_manager.call(task=task, current_loop=current_loop)
        except Exception as error:
            raise RuntimeError(f"model failed: {error}") from error

    def _dispatch(self, task: str, *args, **kwargs) -> Any:
        if self.max_loops == "auto":
            return None
        return self._run(task, *args, **kwargs)

    def run(self, task: str, *args, **kwargs) -> Any:
        if task is None:
            raise ValueError("a task is required")
        return self._dispatch(task, *args, **kwargs)
