# Modelled on langgraph-prebuilt==1.1.3 langgraph/prebuilt/chat_agent_executor.py: the agent
# builds its run on another installed distribution's engine (StateGraph from langgraph's
# langgraph/graph, whose Pregel loop runs the steps) and holds no loop itself.
from looplib import run_loop
from agentapp.extra import describe


class Agent:
    def __init__(self, model, tools, max_steps=5):
        self.model = model
        self.tools = tools
        self.max_steps = max_steps

    def run(self, messages):
        return run_loop(self.model, self.tools, messages, self.max_steps)

    def __repr__(self):
        return describe(self)
