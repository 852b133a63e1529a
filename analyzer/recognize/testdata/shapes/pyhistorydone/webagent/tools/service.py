# Modelled on browser-use==0.13.14 browser_use/tools/service.py (its directory, like tools/ here,
# has no __init__.py: a PEP 420 portion of the regular package above it, imported by its dotted
# name, agent/service.py:75, tools/service.py:38): 441-448 (Tools builds its
# registry as Registry[Context](...)) and 2178-2260 (Tools.act: for action_name, params in
# action.model_dump(exclude_unset=True).items(): result = await asyncio.wait_for(
# self.registry.execute_action(action_name=action_name, params=params, ...), timeout=...)).
import asyncio
from typing import Generic, TypeVar

from webagent.tools.registry.service import Registry

Context = TypeVar("Context")


class ActionResult:
    def __init__(self, is_done=False, error=None, extracted_content=None):
        self.is_done = is_done
        self.error = error
        self.extracted_content = extracted_content


class Tools(Generic[Context]):
    def __init__(self, exclude_actions=None):
        self.registry = Registry[Context](exclude_actions if exclude_actions is not None else [])

    async def act(self, action, browser_session, action_timeout=None):
        timeout_s = action_timeout or 180
        for action_name, params in action.model_dump(exclude_unset=True).items():
            if params is not None:
                try:
                    result = await asyncio.wait_for(
                        self.registry.execute_action(action_name=action_name, params=params, browser_session=browser_session),
                        timeout=timeout_s,
                    )
                except Exception as e:
                    result = ActionResult(error=str(e))
                if isinstance(result, str):
                    return ActionResult(extracted_content=result)
                elif isinstance(result, ActionResult):
                    return result
                return ActionResult()
        return ActionResult()
