# Reduced from agno==3.1.10 agno/agent/_run.py: the agent's run hands the whole turn loop to the
# model (model.response(...), 554) and records how it ended on the run's output: the status
# field set in each except handler before the output is returned (run_response.status =
# RunStatus.error ... return run_response, 693-710, 737-758), the handler's other statements
# (a test, a store) in between; after the try (and its finally) the output is returned (774).
from models.base import Message, Model


class RunStatus:
    completed = "COMPLETED"
    error = "ERROR"


class RunOutput:
    def __init__(self):
        self.content = None
        self.status = None


class CheckError(Exception):
    pass


class Agent:
    def __init__(self, model: Model, tools=None, tool_call_limit=None):
        self.model = model
        self.tools = tools or []
        self.tool_call_limit = tool_call_limit
        self.runs = []

    def _store(self, run_response):
        self.runs.append(run_response)

    def run(self, prompt):
        run_response = RunOutput()
        try:
            model_response = self.model.response(
                messages=[Message(role="user", content=prompt)], tools=self.tools, tool_call_limit=self.tool_call_limit
            )
            run_response.content = model_response.content
            run_response.status = RunStatus.completed
            self._store(run_response)
            return run_response
        except CheckError as e:
            run_response.status = RunStatus.error
            if run_response.content is None:
                run_response.content = str(e)
            self._store(run_response)
            return run_response
        finally:
            self.runs.append(None)
        return run_response
