"""The run's configuration: the limit on model calls defaults to what a factory returns, an
environment override or its fallback constant."""

import os

from pydantic import BaseModel, Field

_DEFAULT_MAX_LLM_CALLS = 500


def _default_max_llm_calls() -> int:
    if env_val := os.getenv("AGENT_MAX_LLM_CALLS"):
        return int(env_val)
    return _DEFAULT_MAX_LLM_CALLS


class RunConfig(BaseModel):
    max_llm_calls: int = Field(default_factory=_default_max_llm_calls, description="a limit")
