class AgentError(Exception):
    pass


class MaxStepsExceeded(AgentError):
    """Raised when the agent runs out of steps."""
