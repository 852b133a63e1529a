# Modelled on camel-ai==0.2.90 camel/agents/chat_agent.py (ChatAgent.step 2828,
# _step_impl 2881-3117, _get_model_response 3577, _execute_tool 4023): the reply's tool
# calls are bound by a walrus in the test (if tool_call_requests := response.tool_call_requests:);
# a summary helper the loop calls runs a child agent of the same class (a nested run).
import threading


class BaseMessage:
    @staticmethod
    def make_user_message(role_name, content):
        return {"role": role_name, "content": content}


class ChatAgent:
    def __init__(self, model_backend, tools=None, max_iteration=None, stop_event: threading.Event = None):
        self.model_backend = model_backend
        self._internal_tools = {t.name: t for t in tools or []}
        self.max_iteration = max_iteration
        self.stop_event = stop_event
        self.retry_attempts = 3
        self.memory = []
        self._summary_agent = None

    def step(self, input_message):
        return self._step_impl(input_message)

    def summarize(self):
        # a child agent of the same class (chat_agent.py:1813-1843: self._context_summary_agent)
        if self._summary_agent is None:
            self._summary_agent = ChatAgent(self.model_backend)  # chat_agent.py:1813
        prompt = "Summarize: " + "\n".join(str(m) for m in self.memory)
        response = self._summary_agent.step(prompt)
        return response["msgs"]

    def _context(self):
        if len(self.memory) > 100:
            self.memory = [self.summarize()]
        return list(self.memory)

    def _step_impl(self, input_message):
        if isinstance(input_message, str):
            input_message = BaseMessage.make_user_message(role_name="User", content=input_message)
        self.memory.append(input_message)
        records = []
        iteration_count = 0
        while True:
            messages = self._context()
            response = self._get_model_response(messages)
            iteration_count += 1
            if self.stop_event and self.stop_event.is_set():
                return self._step_terminate(records, "termination_triggered")
            if tool_call_requests := response.tool_call_requests:
                for tool_call_request in tool_call_requests:
                    result = self._execute_tool(tool_call_request)
                    records.append(result)
                    self.memory.append(result)
                if self.max_iteration is not None and iteration_count >= self.max_iteration:
                    break
                continue
            break
        return self._convert(response, records)

    def _step_terminate(self, records, reason):
        return {"records": records, "terminated": True, "reason": reason}

    def _convert(self, response, records):
        return {"msgs": response.output_messages, "records": records}

    def _get_model_response(self, messages):
        response = None
        for attempt in range(self.retry_attempts):
            try:
                response = self.model_backend.run(messages)
                if response:
                    break
            except RuntimeError:
                continue
        return response

    def _execute_tool(self, tool_call_request):
        tool = self._internal_tools.get(tool_call_request.tool_name)
        if tool is None:
            return "Tool not found"
        return tool(**tool_call_request.args)
