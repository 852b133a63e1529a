# Modelled on browser-use==0.13.14 browser_use/agent/views.py: AgentHistoryList.add_item (614)
# and is_done (722-727: a test of the last result of the last history item).


class AgentHistory:
    def __init__(self, model_output, result, state=None):
        self.model_output = model_output
        self.result = result
        self.state = state


class AgentHistoryList:
    def __init__(self, history, usage=None):
        self.history = history
        self.usage = usage

    def add_item(self, history_item: AgentHistory) -> None:
        self.history.append(history_item)

    def is_done(self) -> bool:
        if self.history and len(self.history[-1].result) > 0:
            last_result = self.history[-1].result[-1]
            return last_result.is_done is True
        return False


class AgentState:
    def __init__(self):
        self.n_steps = 1
        self.consecutive_failures = 0
        self.stopped = False
        self.paused = False
        self.last_model_output = None
        self.last_result = None
