# Modelled on llama-index-core@0.12.52.post1 llama_index/core/agent/react/step.py:228-333,
# 430-475, 557-594: the worker asks the model for text, a helper of a helper parses it into an
# action or a done response (appended to a list it returns beside a done flag), the action's
# tool is looked up by name in a dict built from the tools and run, the observation goes on
# the task's scratchpad, and the worker raises at max_iterations. The streaming twin
# (_run_step_stream, 635-690) drains self._llm.stream_chat, stops at the first chunk that starts
# the final answer, and otherwise parses the whole reply the same way.
from typing import cast

from react_ns.core.agent.formatter import ReActChatFormatter
from react_ns.core.agent.types import BaseAgentWorker, TaskStepOutput
from react_ns.core.llms import LLM, ChatMessage, ChatResponse


class ReActAgentWorker(BaseAgentWorker):
    def __init__(self, tools, llm: LLM, max_iterations: int = 10, react_chat_formatter=None, output_parser=None):
        self._tools = tools
        self._get_tools = lambda _: tools
        self._react_chat_formatter = react_chat_formatter or ReActChatFormatter.from_defaults()
        self._llm = llm
        self._max_iterations = max_iterations
        self._output_parser = output_parser

    def get_tools(self, input):
        return [adapt_to_async_tool(t) for t in self._get_tools(input)]

    def _extract_reasoning_step(self, output):
        message_content = output.message.content
        current_reasoning = []
        reasoning_step = self._output_parser.parse(message_content)
        current_reasoning.append(reasoning_step)
        if reasoning_step.is_done:
            return message_content, current_reasoning, True
        return message_content, current_reasoning, False

    def _process_actions(self, task, tools, output, is_streaming=False):
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
        tools = self.get_tools(task.input)
        input_chat = self._react_chat_formatter.format(tools, current_reasoning=task.extra_state["current_reasoning"])
        chat_response = self._llm.chat(input_chat)
        reasoning_steps, is_done = self._process_actions(task, tools, output=chat_response)
        task.extra_state["current_reasoning"].extend(reasoning_steps)
        agent_response = self._get_response(task.extra_state["current_reasoning"])
        return TaskStepOutput(output=agent_response, task_step=step, next_steps=[], is_last=is_done)

    def _infer_stream_chunk_is_final(self, chunk, missed_chunks_storage):
        latest_content = None if chunk.message.content is None else chunk.message.content.strip()
        if latest_content:
            if len(latest_content) < len("Thought"):
                missed_chunks_storage.append(chunk)
            elif not latest_content.startswith("Thought"):
                return True
            elif "Answer:" in latest_content:
                missed_chunks_storage.clear()
                return True
        return False

    def _run_step_stream(self, step, task):
        tools = self.get_tools(task.input)
        input_chat = self._react_chat_formatter.format(tools, current_reasoning=task.extra_state["current_reasoning"])
        chat_stream = self._llm.stream_chat(input_chat)
        full_response = ChatResponse(message=ChatMessage(content=None, role="assistant"))
        missed_chunks_storage = []
        is_done = False
        for latest_chunk in chat_stream:
            full_response = latest_chunk
            is_done = self._infer_stream_chunk_is_final(latest_chunk, missed_chunks_storage)
            if is_done:
                break
        agent_response = None
        if not is_done:
            reasoning_steps, is_done = self._process_actions(task, tools=tools, output=full_response, is_streaming=True)
            task.extra_state["current_reasoning"].extend(reasoning_steps)
            agent_response = self._get_response(task.extra_state["current_reasoning"])
        else:
            start_idx = (latest_chunk.message.content or "").find("Answer:")
            if start_idx != -1 and latest_chunk.message.content:
                latest_chunk.message.content = latest_chunk.message.content[start_idx + len("Answer:"):].lstrip()
                latest_chunk.delta = latest_chunk.message.content
            agent_response = StreamingAgentChatResponse(chat_stream=chat_stream)
        return TaskStepOutput(output=agent_response, task_step=step, next_steps=[], is_last=is_done)

    def run_step(self, step, task, **kwargs):
        return self._run_step(step, task)

    def stream_step(self, step, task, **kwargs):
        return self._run_step_stream(step, task)


class ActionReasoningStep:
    def __init__(self, thought, action, action_input):
        self.thought = thought
        self.action = action
        self.action_input = action_input


class ObservationReasoningStep:
    def __init__(self, observation):
        self.observation = observation
