# Modelled on swarms==16.0.3 swarms/tools/base_tool.py (_log_if_verbose 103-117,
# execute_function_calls_from_api_response 888-1040, _execute_function_calls_parallel
# 1388-1432, _execute_single_function_call 1433-1470): each call's function is looked up by
# the name read with call.get("name") (function_map[name]) and run, in a thread pool unless
# asked for sequential runs; a log helper picks the logger method by a level string.
import logging
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Callable, Dict, List, Optional

logger = logging.getLogger(__name__)


class BaseTool:
    def __init__(self, tools: Optional[List[Callable]] = None, verbose: bool = False):
        self.tools = tools or []
        self.verbose = verbose
        self.function_map: Dict[str, Callable] = {t.__name__: t for t in self.tools}

    def _log_if_verbose(self, level: str, message: str) -> None:
        if self.verbose:
            log_method = getattr(logger, level.lower(), logger.info)
            log_method(message)

    def search(self, call: Dict[str, Any]) -> None:
        self._log_if_verbose("info", f"search {call}")

    def _extract_function_calls(self, api_response: Any) -> List[Dict[str, Any]]:
        if isinstance(api_response, list):
            return [c for c in api_response if isinstance(c, dict)]
        return []

    def execute_function_calls_from_api_response(
        self, api_response: Any, sequential: bool = False, max_workers: int = 4
    ) -> List[Any]:
        self._log_if_verbose("info", "executing")
        function_calls = self._extract_function_calls(api_response)
        if not function_calls:
            return []
        if sequential:
            results = self._execute_function_calls_sequential(function_calls)
        else:
            results = self._execute_function_calls_parallel(function_calls, max_workers)
        self._log_if_verbose("info", f"{len(results)} results")
        return results

    def _execute_function_calls_sequential(self, function_calls: List[Dict[str, Any]]) -> List[Any]:
        results = []
        for call in function_calls:
            results.append(self._execute_single_function_call(call))
        return results

    def _execute_function_calls_parallel(self, function_calls: List[Dict[str, Any]], max_workers: int) -> List[Any]:
        results = [None] * len(function_calls)
        with ThreadPoolExecutor(max_workers=max_workers) as executor:
            future_to_index = {}
            for i, call in enumerate(function_calls):
                future = executor.submit(self._execute_single_function_call, call)
                future_to_index[future] = i
            for future in as_completed(future_to_index):
                results[future_to_index[future]] = future.result()
        return results

    def _execute_single_function_call(self, call: Dict[str, Any]) -> Any:
        name = call.get("name")
        arguments = call.get("arguments", {})
        if not name:
            raise ValueError("Function call missing name")
        if self.function_map and name in self.function_map:
            func = self.function_map[name]
        else:
            raise KeyError(f"Function {name} not found")
        return func(**arguments)
