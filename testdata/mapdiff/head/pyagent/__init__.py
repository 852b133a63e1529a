from .agent import ReactAgent
from .config import DEFAULT_MAX_STEPS

__all__ = ["ReactAgent", "DEFAULT_MAX_STEPS"]
