# Modelled on browser-use==0.13.14 browser_use/tools/registry/service.py:33-37 (Registry holds
# an ActionRegistry) and 325-395 (execute_action: self.registry.actions[action_name], then
# await action.function(params=validated_params, **special_context)).
from typing import Generic, TypeVar

Context = TypeVar("Context")


class ActionRegistry:
    def __init__(self):
        self.actions = {}


class Registry(Generic[Context]):
    def __init__(self, exclude_actions=None):
        self.registry = ActionRegistry()
        self.exclude_actions = exclude_actions or []

    async def execute_action(self, action_name: str, params: dict, browser_session=None):
        if action_name not in self.registry.actions:
            raise ValueError(f"Action {action_name} not found")
        action = self.registry.actions[action_name]
        validated_params = action.param_model(**params)
        special_context = {"browser_session": browser_session}
        return await action.function(params=validated_params, **special_context)
