# Modelled on browser-use==0.13.14 browser_use/agent/service.py. Agent.run (2521-2720) is a
# counted while (2620: while self.state.n_steps <= max_steps, keyword default 500) with a stop
# flag checked before each step (2638) and a while ... else at the bound (2655); it leaves when
# the step helper reports done (2644: is_done = await self._execute_step(...); if is_done:
# break). _execute_step (2456-2517) runs the step behind asyncio.wait_for and returns
# self.history.is_done() (2502), a test of the last action result the step's finally recorded
# in the history (_finalize 1357-1416 -> _make_history_item 1736-1782 ->
# self.history.add_item(AgentHistory(model_output=..., result=...))). The step (1036-1090)
# calls two siblings in turn: _get_next_action (1177-1210) keeps the model's decision on the
# state object (self.state.last_model_output = model_output), got through
# _get_model_output_with_retry (1668-1702) -> get_model_output (1943-1975: await
# self.llm.ainvoke(...)); _execute_actions (1212-1218) reads it back and hands its actions to
# multi_act (2755-2860), which runs them one after another through self.tools.act (the tools
# registry looks each action up by the key of its one set field). The results reach the next
# request through the message manager (_prepare_context 1130-1150, not mapped).
import asyncio

from webagent.agent.message_manager.service import MessageManager
from webagent.tools.service import ActionResult, Tools
from webagent.agent.views import AgentHistory, AgentHistoryList, AgentState


class Agent:
    def __init__(self, task, llm, tools: Tools | None = None, step_timeout: int = 180, max_failures: int = 3):
        self.task = task
        self.llm = llm
        if tools is not None:
            self.tools = tools
        else:
            self.tools = Tools()
        self.state = AgentState()
        self.history = AgentHistoryList(history=[], usage=None)
        self.step_timeout = step_timeout
        self.max_failures = max_failures
        self._message_manager = MessageManager(task=task)

    async def run(self, max_steps: int = 500):
        agent_run_error = None
        try:
            while self.state.n_steps <= max_steps:
                current_step = self.state.n_steps - 1
                if self.state.consecutive_failures >= self.max_failures:
                    agent_run_error = f"Stopped due to {self.max_failures} consecutive failures"
                    break
                if self.state.stopped:
                    agent_run_error = "Agent stopped programmatically"
                    break
                is_done = await self._execute_step(current_step, max_steps)
                if is_done:
                    break
            else:
                agent_run_error = "Failed to complete task in maximum steps"
                self.history.add_item(AgentHistory(model_output=None, result=[ActionResult(error=agent_run_error)]))
            return self.history
        except KeyboardInterrupt:
            agent_run_error = "KeyboardInterrupt"
            return self.history
        except Exception as e:
            agent_run_error = str(e)
            raise e

    async def _execute_step(self, step: int, max_steps: int) -> bool:
        try:
            await asyncio.wait_for(self.step(), timeout=self.step_timeout)
        except TimeoutError:
            self.state.consecutive_failures += 1
            self.state.last_result = [ActionResult(error=f"Step {step + 1} timed out")]
            if self.state.n_steps == step + 1:
                self.state.n_steps += 1
        if self.history.is_done():
            return True
        return False

    async def step(self) -> None:
        try:
            self._prepare_context()
            self.state.last_model_output = None
            self.state.last_result = None
            await self._get_next_action()
            await self._execute_actions()
        except Exception as e:
            await self._handle_step_error(e)
        finally:
            await self._finalize()

    def _prepare_context(self):
        self._message_manager.create_state_messages(
            model_output=self.state.last_model_output,
            result=self.state.last_result,
        )

    async def _get_next_action(self) -> None:
        input_messages = self._message_manager.get_messages()
        model_output = await asyncio.wait_for(self._get_model_output_with_retry(input_messages), timeout=60)
        self.state.last_model_output = model_output

    async def _execute_actions(self) -> None:
        if self.state.last_model_output is None:
            raise ValueError("No model output to execute actions from")
        result = await self.multi_act(self.state.last_model_output.action)
        self.state.last_result = result

    async def _handle_step_error(self, error: Exception) -> None:
        self.state.consecutive_failures += 1
        self.state.last_result = [ActionResult(error=str(error))]

    async def _finalize(self) -> None:
        if not self.state.last_result:
            return
        await self._make_history_item(self.state.last_model_output, self.state.last_result)
        self.state.n_steps += 1

    async def _make_history_item(self, model_output, result) -> None:
        history_item = AgentHistory(model_output=model_output, result=result)
        self.history.add_item(history_item)

    async def _get_model_output_with_retry(self, input_messages):
        model_output = await self.get_model_output(input_messages)
        if not model_output.action or all(action.model_dump() == {} for action in model_output.action):
            retry_messages = input_messages + [{"role": "user", "content": "You forgot to return an action."}]
            model_output = await self.get_model_output(retry_messages)
        return model_output

    async def get_model_output(self, input_messages):
        kwargs: dict = {"output_format": self.AgentOutput}
        response = await self.llm.ainvoke(input_messages, **kwargs)
        parsed = response.completion
        return parsed

    async def multi_act(self, actions):
        results = []
        total_actions = len(actions)
        for i, action in enumerate(actions):
            action_data = action.model_dump(exclude_unset=True)
            if i > 0 and action_data.get("done") is not None:
                break
            try:
                result = await self.tools.act(action=action, browser_session=None)
                results.append(result)
                if results[-1].is_done or results[-1].error or i == total_actions - 1:
                    break
            except Exception as e:
                results.append(ActionResult(error=f"{type(e).__name__}: {e}"))
                break
        return results

    def stop(self) -> None:
        self.state.stopped = True
