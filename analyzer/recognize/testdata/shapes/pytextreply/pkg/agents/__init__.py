# Modelled on autogen-agentchat==0.7.5 autogen_agentchat/agents/__init__.py: the public names
# of the private modules.
from ._assistant_agent import AssistantAgent
from ._helpers import (
    summarize,
    format_calls as fmt,
)

__all__ = ["AssistantAgent", "summarize", "fmt"]
