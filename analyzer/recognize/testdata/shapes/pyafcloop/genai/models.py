# Modelled on google-genai==1.52.0 google/genai/models.py 3951-4023 (Models._generate_content:
# the request posted through the SDK's own HTTP client, self._api_client.request('post', ...),
# its reply wrapped by a classmethod factory of an unanalysed type,
# types.GenerateContentResponse._from_response(...)) and 5207-5252 (Models.generate_content:
# while remaining_remote_calls_afc > 0, a countdown whose start a helper of another module
# returns; the tools' results appended to the contents the next request gets, after the
# contents are rebound through an unanalysed transformer, contents = t.t_contents(contents),
# whose result reaches the model call only on the next iteration).
import json

from . import _extra_utils
from . import _transformers as t
from . import types


class Models:
    def __init__(self, api_client):
        self._api_client = api_client

    def _generate_content(self, *, model, contents, config):
        request_dict = {"model": model, "contents": contents, "config": config}
        response = self._api_client.request("post", f"{model}:generateContent", request_dict)
        response_dict = {} if not response.body else json.loads(response.body)
        return_value = types.GenerateContentResponse._from_response(response=response_dict)
        return return_value

    def generate_content(self, *, model, contents, config=None):
        remaining_remote_calls_afc = _extra_utils.get_max_remote_calls_afc(
            config
        )
        response = types.GenerateContentResponse()
        while remaining_remote_calls_afc > 0:
            response = self._generate_content(
                model=model, contents=contents, config=config
            )
            function_map = _extra_utils.get_function_map(config)
            if not function_map:
                break
            if not response:
                break
            func_response_parts = _extra_utils.get_function_response_parts(
                response, function_map
            )
            if not func_response_parts:
                break
            remaining_remote_calls_afc -= 1
            func_call_content = response.candidates[0].content
            func_response_content = types.Content(role="user", parts=func_response_parts)
            contents = t.t_contents(contents)
            if isinstance(contents, list):
                contents.append(func_call_content)
                contents.append(func_response_content)
        return response
