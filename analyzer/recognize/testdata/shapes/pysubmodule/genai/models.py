# pysubmodule: the loop's helpers live in a sibling module imported as `from . import
# _extra_utils` from a package whose __init__ is not among the analysed files (modelled on
# google-genai==1.52.0 google/genai/models.py:5216-5263, Models.generate_content, and
# google/genai/_extra_utils.py:304-365): the tools are iterated and dispatched by name inside
# _extra_utils.get_function_response_parts, so the loop is found only when that attribute of the
# imported submodule resolves to the submodule's function.
from . import _extra_utils
from . import types


class Models:
    def _generate_content(self, *, model, contents, config=None):
        request_dict = {"model": model, "contents": contents}
        response = self._api_client.request("post", "generateContent", request_dict)
        return response

    def generate_content(self, *, model, contents, config=None):
        remaining_remote_calls_afc = _extra_utils.get_max_remote_calls_afc(config)
        response = None
        while remaining_remote_calls_afc > 0:
            response = self._generate_content(model=model, contents=contents, config=config)
            function_map = _extra_utils.get_function_map(config)
            if not function_map:
                break
            if not response.candidates or not response.candidates[0].content.parts:
                break
            func_response_parts = _extra_utils.get_function_response_parts(response, function_map)
            if not func_response_parts:
                break
            remaining_remote_calls_afc -= 1
            func_call_content = response.candidates[0].content
            func_response_content = types.Content(role="user", parts=func_response_parts)
            contents.append(func_call_content)
            contents.append(func_response_content)
        return response
