# Modelled on browser-use==0.13.14 browser_use/agent/service.py: Agent.step (1036-1090) calls
# two sibling methods of the receiver in turn, await self._get_next_action(...) and await
# self._execute_actions(); the first keeps the model's decision on the state object the
# receiver holds (1186-1201: model_output = await asyncio.wait_for(
# self._get_model_output_with_retry(...)); self.state.last_model_output = model_output), the
# second reads it back (1212-1218: result = await
# self.multi_act(self.state.last_model_output.action)) and runs each action (2755-2830). The
# run loop is the counted while of Agent.run (2620: while self.state.n_steps <= max_steps,
# keyword default 500, a while ... else at the bound), the step behind asyncio.wait_for.
# Unlike browser-use (whose loop leaves on self.history.is_done() of the last tool result),
# the step here reports no pending action (if not actions: return None) and the loop ends on
# the result kept in the state.
import asyncio


class AgentState:
    def __init__(self):
        self.n_steps = 1
        self.stopped = False
        self.last_model_output = None
        self.last_result = None


class Agent:
    def __init__(self, llm, tools: dict):
        self.llm = llm
        self.tools = tools
        self.state = AgentState()
        self.messages = []

    async def run(self, task, max_steps: int = 500):
        self.messages.append({"role": "user", "content": task})
        while self.state.n_steps <= max_steps:
            if self.state.stopped:
                break
            await asyncio.wait_for(self.step(), timeout=60)
            if self.state.last_result is None:
                return self.state.last_model_output.content
        else:
            self.messages.append({"role": "system", "content": "Failed to complete task in maximum steps"})
        return None

    async def step(self):
        await self._get_next_action()
        await self._execute_actions()
        self.state.n_steps += 1

    async def _get_next_action(self):
        model_output = await asyncio.wait_for(self.get_model_output(self.messages), timeout=30)
        self.state.last_model_output = model_output

    async def get_model_output(self, messages):
        response = await self.llm.ainvoke(messages)
        return response.completion

    async def _execute_actions(self):
        if self.state.last_model_output is None:
            raise ValueError("No model output to execute actions from")
        result = await self.multi_act(self.state.last_model_output.action)
        self.state.last_result = result

    async def multi_act(self, actions):
        if not actions:
            return None
        results = []
        for action in actions:
            out = await self.tools[action.name](**action.params)
            results.append(out)
            self.messages.append({"role": "tool", "content": out})
        return results
