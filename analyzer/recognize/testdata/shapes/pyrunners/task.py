# Modelled on griptape==1.13.0 griptape/tasks/prompt_task.py:81-87 (PromptTask.subtask_runners:
# an attrs field whose default is a Factory of a lambda taking self that lists two bound
# methods), 208-220 (PromptTask.try_run: the first model call, its output handed to each
# runner in turn: for subtask_runner in self.subtask_runners: output =
# subtask_runner(output)) and 302-325 (default_run_actions_subtasks, the runner holding the
# turn loop, bounded by the max_subtasks field). The loop here is the plain shape (the
# model's tool calls dispatched by name, fed back, no tool call ends it); what is checked is
# that the run entry is try_run, which reaches the loop only through the runners' list.
from attrs import Factory, define, field

DEFAULT_MAX_STEPS = 20


@define
class PromptTask:
    prompt_driver: object = field(kw_only=True)
    tools: dict = field(factory=dict, kw_only=True)
    max_subtasks: int = field(default=DEFAULT_MAX_STEPS, kw_only=True)
    subtask_runners: list = field(
        default=Factory(
            lambda self: [self.default_run_actions_subtasks, self.default_run_output_subtasks],
            takes_self=True,
        ),
        kw_only=True,
    )

    def try_run(self, prompt):
        messages = [{"role": "user", "content": prompt}]
        output = self.prompt_driver.run(messages)
        for subtask_runner in self.subtask_runners:
            output = subtask_runner(output, messages)
        return output

    def default_run_actions_subtasks(self, output, messages):
        for _ in range(self.max_subtasks):
            if not output.tool_calls:
                return output
            for call in output.tool_calls:
                result = self.tools[call.name](**call.arguments)
                messages.append({"role": "tool", "content": result})
            output = self.prompt_driver.run(messages)
        return output

    def default_run_output_subtasks(self, output, messages):
        return output
