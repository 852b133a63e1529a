"""The invocation context counts model calls in a cost manager, which raises past the limit."""

from .run_config import RunConfig


class LlmCallsLimitExceededError(Exception):
    pass


class _CostManager:
    _number_of_llm_calls: int = 0

    def increment_and_enforce(self, run_config: RunConfig | None) -> None:
        self._number_of_llm_calls += 1
        if run_config and run_config.max_llm_calls > 0 and self._number_of_llm_calls > run_config.max_llm_calls:
            raise LlmCallsLimitExceededError("too many model calls")


class Context:
    def __init__(self, run_config: RunConfig, llm, tools):
        self.run_config = run_config
        self.llm = llm
        self.tools = tools
        self.events = []
        self.is_aborted = False
        self._costs = _CostManager()

    def increment_llm_call_count(self):
        self._costs.increment_and_enforce(self.run_config)
