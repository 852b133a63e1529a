# Modelled on llama-index-core@0.12.52.post1 llama_index/core/agent/react/step.py:228-333,
# 430-475, 557-594: the worker asks the model for text, a helper of a helper parses it into an
# action or a done response (appended to a list it returns beside a done flag), the action's
# tool is looked up by name in a dict built from the tools and run, the observation goes on
# the task's scratchpad, and the worker raises at max_iterations.
from typing import cast

from react_ns.core.agent.types import BaseAgentWorker, TaskStepOutput


class ReActAgentWorker(BaseAgentWorker):
    def __init__(self, tools, llm, max_iterations: int = 10, output_parser=None):
        self._tools = tools
        self._llm = llm
        self._max_iterations = max_iterations
        self._output_parser = output_parser

    def _extract_reasoning_step(self, output):
        message_content = output.message.content
        current_reasoning = []
        reasoning_step = self._output_parser.parse(message_content)
        current_reasoning.append(reasoning_step)
        if reasoning_step.is_done:
            return message_content, current_reasoning, True
        return message_content, current_reasoning, False

    def _process_actions(self, task, tools, output):
        tools_dict = {tool.metadata.get_name(): tool for tool in tools}
        _, current_reasoning, is_done = self._extract_reasoning_step(output)
        if is_done:
            return current_reasoning, True
        reasoning_step = cast(ActionReasoningStep, current_reasoning[-1])
        if reasoning_step.action in tools_dict:
            tool = tools_dict[reasoning_step.action]
            tool_output = tool.call(**reasoning_step.action_input)
        else:
            tool_output = "no such tool"
        current_reasoning.append(ObservationReasoningStep(observation=str(tool_output)))
        return current_reasoning, False

    def _get_response(self, current_reasoning):
        if len(current_reasoning) == 0:
            raise ValueError("No reasoning steps were taken.")
        elif len(current_reasoning) >= self._max_iterations:
            raise ValueError("Reached max iterations.")
        return current_reasoning[-1]

    def _run_step(self, step, task):
        input_chat = self._formatter.format(self._tools, current_reasoning=task.extra_state["current_reasoning"])
        chat_response = self._llm.chat(input_chat)
        reasoning_steps, is_done = self._process_actions(task, self._tools, output=chat_response)
        task.extra_state["current_reasoning"].extend(reasoning_steps)
        agent_response = self._get_response(task.extra_state["current_reasoning"])
        return TaskStepOutput(output=agent_response, task_step=step, next_steps=[], is_last=is_done)

    def run_step(self, step, task, **kwargs):
        return self._run_step(step, task)


class ActionReasoningStep:
    def __init__(self, thought, action, action_input):
        self.thought = thought
        self.action = action
        self.action_input = action_input


class ObservationReasoningStep:
    def __init__(self, observation):
        self.observation = observation
