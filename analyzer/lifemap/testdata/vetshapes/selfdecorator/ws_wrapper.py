# Modelled on camel-ai@0.2.90 camel/toolkits/hybrid_browser_toolkit/ws_wrapper.py:135-190
# (high_level_action): a decorator's wrapper is a def with a self parameter outside any class,
# and it binds a local to a method of self (ws_wrapper = await self._get_ws_wrapper()). At
# a81fc21 typing that local resolved self through the wrapper's own locals, which waited on
# themselves: vet of any tree holding this file hung, and MCPAgent.astep's recursion above went
# unreported.
import time
from functools import wraps


def high_level_action(func):
    @wraps(func)
    async def wrapper(self, *args, **kwargs):
        action_name = func.__name__
        start_time = time.time()
        result = await func(self, *args, **kwargs)
        if hasattr(self, "_get_ws_wrapper"):
            ws_wrapper = await self._get_ws_wrapper()
            await ws_wrapper._log_action(
                action_name=action_name,
                outputs=result,
                execution_time=time.time() - start_time,
            )
        return result

    return wrapper
