# Reduced from camel-ai==0.2.90 camel/agents/chat_agent.py: ChatAgent.step (2828) ->
# _step_impl (2881), a `while True` (2937) asking the model through a sibling with a retry
# loop (_get_model_response 3577 -> self.model_backend.run 3590) and running the internal
# tools by name (_execute_tool 4023 -> tool(**args) 4048). The context helper of each
# iteration (_get_context_with_summarization 1009) may call summarize (1718), which runs a
# CHILD agent the receiver holds (self._context_summary_agent = ChatAgent(...) 1813, then
# self._context_summary_agent.step(prompt_text) 1843): another instance's run, not this
# run's step again, so _step_impl is no turn recursion. (Without that, the call before the
# loop, BaseMessage.make_user_message at 2914, whose result the response-format helper
# (2906, 2640-2677) carries on beside the schema it iterates, was taken for the model call of
# an invented recursion of _step_impl: a false unboundedloop.)
import logging

from camel.messages import BaseMessage

logger = logging.getLogger(__name__)


class ChatAgent:
    def __init__(self, model, tools=None, max_iteration=None, stop_event=None):
        self.model_backend = model
        self._internal_tools = {t.get_function_name(): t for t in (tools or [])}
        self.max_iteration = max_iteration
        self.stop_event = stop_event
        self.memory = []
        self.retry_attempts = 3
        self.token_limit = 1000
        self._context_summary_agent = None

    def update_memory(self, message, role):
        self.memory.append((role, message))

    def _get_context_with_summarization(self):
        num_tokens = len(self.memory)
        if num_tokens > self.token_limit:
            summary = self.summarize()
            self.memory = [("system", summary.get("summary", ""))]
        return list(self.memory), num_tokens

    def summarize(self):
        result = {"summary": "", "status": ""}
        if not self.memory:
            result["status"] = "No conversation context available to summarize."
            return result
        if self._context_summary_agent is None:
            self._context_summary_agent = ChatAgent(model=self.model_backend)
        prompt_text = "Summarize: " + str(self.memory)
        try:
            response = self._context_summary_agent.step(prompt_text)
        except Exception as step_exc:
            result["status"] = f"Failed to generate summary using model: {step_exc}"
            return result
        if not response.msgs:
            result["status"] = "Failed to generate summary from model response."
            return result
        result["summary"] = response.msgs[-1].content.strip()
        return result

    def step(self, input_message, response_format=None):
        return self._step_impl(input_message, response_format)

    def _convert_response_format_to_prompt(self, response_format):
        try:
            schema = response_format.model_json_schema()
            format_instruction = "\n\nPlease respond in the following JSON format:\n{\n"
            properties = schema.get("properties", {})
            for field_name, field_info in properties.items():
                field_type = field_info.get("type", "string")
                format_instruction += f'    "{field_name}": "{field_type} value"\n'
            format_instruction += "}"
            return format_instruction
        except Exception as e:
            logger.warning(f"Failed to convert response_format to prompt: {e}")
            return "\n\nPlease respond in JSON format."

    def _handle_response_format_with_non_strict_tools(self, input_message, response_format):
        if response_format is None:
            return input_message, response_format, False
        format_prompt = self._convert_response_format_to_prompt(response_format)
        if isinstance(input_message, str):
            modified_message = input_message + format_prompt
        else:
            modified_message = input_message.create_new_instance(
                input_message.content + format_prompt
            )
        return modified_message, None, True

    def _step_impl(self, input_message, response_format=None):
        original_response_format = response_format
        input_message, response_format, used_prompt_formatting = (
            self._handle_response_format_with_non_strict_tools(
                input_message, response_format
            )
        )
        if isinstance(input_message, str):
            input_message = BaseMessage.make_user_message(
                role_name="User", content=input_message
            )
        self.update_memory(input_message, "user")
        tool_call_records = []
        iteration_count = 0
        while True:
            openai_messages, num_tokens = self._get_context_with_summarization()
            response = self._get_model_response(openai_messages, response_format=response_format)
            iteration_count += 1
            if self.stop_event and self.stop_event.is_set():
                return self._step_terminate(tool_call_records, "termination_triggered")
            if tool_call_requests := response.tool_call_requests:
                for tool_call_request in tool_call_requests:
                    result = self._execute_tool(tool_call_request)
                    tool_call_records.append(result)
                if (
                    self.max_iteration is not None
                    and iteration_count >= self.max_iteration
                ):
                    logger.info(f"Max iteration reached: {iteration_count}")
                    break
                continue
            break
        if used_prompt_formatting and original_response_format:
            self._apply_prompt_based_parsing(response, original_response_format)
        return self._convert_to_chatagent_response(response, tool_call_records)

    def _get_model_response(self, openai_messages, response_format=None):
        last_error = None
        for attempt in range(self.retry_attempts):
            try:
                response = self.model_backend.run(openai_messages, response_format)
                if response:
                    return response
            except Exception as e:
                last_error = e
        raise RuntimeError(f"model failed: {last_error}")

    def _execute_tool(self, tool_call_request):
        func_name = tool_call_request.tool_name
        args = tool_call_request.args
        tool = self._internal_tools.get(func_name)
        if tool is None:
            result = f"Tool '{func_name}' not found in registered tools"
        else:
            try:
                result = tool(**args)
            except Exception as e:
                result = f"Tool execution failed: {e!s}"
        self.update_memory({"tool": func_name, "result": result}, "function")
        return {"tool_name": func_name, "args": args, "result": result}

    def _apply_prompt_based_parsing(self, response, original_response_format):
        for message in response.output_messages:
            message.parsed = original_response_format.model_validate_json(message.content)

    def _step_terminate(self, tool_call_records, reason):
        return {"msgs": [], "terminated": True, "info": {"termination_reasons": [reason]}}

    def _convert_to_chatagent_response(self, response, tool_call_records):
        return {"msgs": response.output_messages, "terminated": False, "tool_calls": tool_call_records}
