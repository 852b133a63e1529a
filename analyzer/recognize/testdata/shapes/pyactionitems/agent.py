# Modelled on browser-use==0.13.14: the actions a model output carries are pydantic models
# with one field set, named for the action (tools/service.py:2178-2232, Tools.act: for
# action_name, params in action.model_dump(exclude_unset=True).items()), the registry looks the
# registered action up by that key (tools/registry/service.py:325-395, execute_action:
# self.registry.actions[action_name], await action.function(params=...)), and the agent runs
# the step's actions one after another (agent/service.py:2755-2810, multi_act). The loop is
# written here around the step in one method; browser-use's own loop reaches it through
# receiver state (self.state.last_model_output), which lifeline does not follow yet.
import asyncio


class Registry:
    def __init__(self):
        self.actions = {}

    async def execute_action(self, action_name, params, browser_session=None):
        if action_name not in self.actions:
            raise ValueError(f"Action {action_name} not found")
        action = self.actions[action_name]
        return await action.function(params=params, browser_session=browser_session)


class Tools:
    def __init__(self):
        self.registry = Registry()

    async def act(self, action, browser_session):
        for action_name, params in action.model_dump(exclude_unset=True).items():
            if params is not None:
                result = await asyncio.wait_for(
                    self.registry.execute_action(action_name=action_name, params=params, browser_session=browser_session),
                    timeout=180,
                )
                return result
        return None


class Agent:
    def __init__(self, task, llm, tools=None, max_failures: int = 3):
        self.task = task
        self.llm = llm
        self.tools = tools or Tools()
        self.messages = [{"role": "user", "content": task}]
        self.browser_session = None

    async def run(self, max_steps: int = 500):
        for step in range(max_steps):
            response = await self.llm.ainvoke(self.messages, output_format=self.AgentOutput)
            parsed = response.completion
            if not parsed.action:
                return parsed
            results = await self.multi_act(parsed.action)
            self.messages.append({"role": "user", "content": [r.extracted_content for r in results]})
            if results and results[-1].is_done:
                return parsed
        return None

    async def multi_act(self, actions):
        results = []
        for i, action in enumerate(actions):
            result = await self.tools.act(action=action, browser_session=self.browser_session)
            results.append(result)
            if result.is_done:
                break
        return results
