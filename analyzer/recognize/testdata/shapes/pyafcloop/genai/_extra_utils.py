# Modelled on google-genai==1.52.0 google/genai/_extra_utils.py 55 (_DEFAULT_MAX_REMOTE_CALLS_AFC
# = 10), 150 and 333-366 (get_function_map, get_function_response_parts: each function call of the
# reply looked up by name in the map of the user's callables and called) and 472-489
# (get_max_remote_calls_afc: the module default when the config sets no maximum, raising when
# automatic function calling is disabled, else the config's maximum).
from . import types

_DEFAULT_MAX_REMOTE_CALLS_AFC = 10


def get_function_map(config):
    function_map = {}
    if not config:
        return function_map
    for tool in config.tools:
        if callable(tool):
            function_map[tool.__name__] = tool
    return function_map


def get_function_response_parts(response, function_map):
    func_response_parts = []
    for part in response.candidates[0].content.parts:
        if not part.function_call:
            continue
        func_name = part.function_call.name
        if func_name is not None and func_name in function_map:
            func = function_map[func_name]
            args = part.function_call.args or {}
            func_response = {"result": func(**args)}
            func_response_parts.append(types.Part.from_function_response(name=func_name, response=func_response))
    return func_response_parts


def should_disable_afc(config):
    return bool(config.automatic_function_calling and config.automatic_function_calling.disable)


def get_max_remote_calls_afc(config=None):
    if not config:
        return _DEFAULT_MAX_REMOTE_CALLS_AFC
    if should_disable_afc(config):
        raise ValueError("automatic function calling is not enabled")
    if (
        not config.automatic_function_calling
        or config.automatic_function_calling.maximum_remote_calls is None
    ):
        return _DEFAULT_MAX_REMOTE_CALLS_AFC
    return int(config.automatic_function_calling.maximum_remote_calls)
