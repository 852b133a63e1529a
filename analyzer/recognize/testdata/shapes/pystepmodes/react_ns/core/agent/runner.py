# react_ns/ has no __init__.py (a PEP 420 namespace, as llama_index/ is) and the modules import
# one another through it.
# Modelled on llama-index-core@0.12.52.post1 llama_index/core/agent/runner/base.py:410-450 and
# 624-716: AgentRunner._chat loops `while True:` over the worker's step, called through a
# field typed as the abstract worker, and breaks on the step output's is_last. The runner's
# _run_step asks the worker one of two ways by the chat mode (435-440): run_step (chat, the
# mode of chat()) or stream_step (stream_chat): each is one way of the loop's step.
from react_ns.core.agent.types import BaseAgentWorker, ChatResponseMode


class AgentRunner:
    def __init__(self, agent_worker: BaseAgentWorker):
        self.agent_worker = agent_worker
        self.state = {}

    def _run_step(self, task_id, step=None, mode=ChatResponseMode.WAIT):
        task = self.state[task_id]
        step = step or task.step_queue.popleft()
        if mode == ChatResponseMode.WAIT:
            cur_step_output = self.agent_worker.run_step(step, task)
        elif mode == ChatResponseMode.STREAM:
            cur_step_output = self.agent_worker.stream_step(step, task)
        else:
            raise ValueError(f"Invalid mode: {mode}")
        task.step_queue.extend(cur_step_output.next_steps)
        return cur_step_output

    def _chat(self, message, mode=ChatResponseMode.WAIT):
        task = self.create_task(message)
        result_output = None
        while True:
            cur_step_output = self._run_step(task.task_id, mode=mode)
            if cur_step_output.is_last:
                result_output = cur_step_output
                break
        return result_output.output

    def chat(self, message):
        chat_response = self._chat(message)
        return chat_response

    def stream_chat(self, message):
        chat_response = self._chat(message, mode=ChatResponseMode.STREAM)
        return chat_response
