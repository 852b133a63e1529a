_DEFAULT_MAX_REMOTE_CALLS_AFC = 10


def get_function_map(config=None):
    function_map = {}
    if not config:
        return function_map
    for tool in config.tools:
        if callable(tool):
            function_map[tool.__name__] = tool
    return function_map


def invoke_function_from_dict_args(args, function_to_invoke):
    try:
        return function_to_invoke(**args)
    except Exception as e:
        raise ValueError(str(e))


def get_function_response_parts(response, function_map):
    func_response_parts = []
    for part in response.candidates[0].content.parts:
        if not part.function_call:
            continue
        func = function_map[part.function_call.name]
        try:
            func_response = {"result": invoke_function_from_dict_args(part.function_call.args, func)}
        except Exception as e:
            func_response = {"error": str(e)}
        func_response_parts.append(func_response)
    return func_response_parts


def get_max_remote_calls_afc(config=None):
    if not config:
        return _DEFAULT_MAX_REMOTE_CALLS_AFC
    return int(config.automatic_function_calling.maximum_remote_calls)
