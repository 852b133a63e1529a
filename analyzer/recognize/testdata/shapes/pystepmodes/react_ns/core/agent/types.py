# Modelled on llama-index-core@0.12.52.post1 llama_index/core/agent/types.py: the abstract step
# worker a runner holds and the step output whose is_last ends the run.
from abc import abstractmethod
from enum import Enum


class ChatResponseMode(str, Enum):
    WAIT = "wait"
    STREAM = "stream"


class TaskStepOutput:
    def __init__(self, output, task_step, next_steps, is_last=False):
        self.output = output
        self.task_step = task_step
        self.next_steps = next_steps
        self.is_last = is_last


class BaseAgentWorker:
    @abstractmethod
    def run_step(self, step, task, **kwargs):
        """Run step."""

    @abstractmethod
    def stream_step(self, step, task, **kwargs):
        """Run step (stream)."""
