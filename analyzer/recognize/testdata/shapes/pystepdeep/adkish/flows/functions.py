"""Re-exports of the tool helpers."""

from .tools._functions import handle_function_calls_async as handle_function_calls_async
from .tools._functions import handle_function_call_list_async as handle_function_call_list_async
