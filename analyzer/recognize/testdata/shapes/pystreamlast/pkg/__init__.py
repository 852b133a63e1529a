# Modelled on qwen-agent==0.0.34 qwen_agent/__init__.py:17: the package re-exports its base
# class; the agents import it from the package (from qwen_agent import Agent).
from .agent import Agent

__all__ = ['Agent']
