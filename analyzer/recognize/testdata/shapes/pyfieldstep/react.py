# Modelled on dspy==3.4.1 dspy/predict/react.py:16-45, 95-121, 150-165 (ReAct.forward): the
# step's result is one action, no collection of tool calls: a field of it keys the tool
# table (self.tools[pred.next_tool_name](**pred.next_tool_args)), a name compare ends the loop
# (if pred.next_tool_name == "finish": break); the observation is stored under a key of the
# trajectory the next call formats; the bound overridable per call with a fallback to the
# field a constructor keyword default fills (input_args.pop("max_iters", self.max_iters)).
import logging

logger = logging.getLogger(__name__)


class ReAct:
    def __init__(self, signature, tools, max_iters: int = 20):
        self.signature = signature
        self.max_iters = max_iters
        self.tools = {tool.name: tool for tool in tools}
        self.react = Predict(signature)

    def forward(self, **input_args):
        trajectory = {}
        max_iters = input_args.pop("max_iters", self.max_iters)
        for idx in range(max_iters):
            try:
                pred = self._call_with_potential_trajectory_truncation(self.react, trajectory, **input_args)
            except ValueError as err:
                logger.warning(f"Ending the trajectory: {err}")
                break

            trajectory[f"thought_{idx}"] = pred.next_thought
            trajectory[f"tool_name_{idx}"] = pred.next_tool_name
            trajectory[f"tool_args_{idx}"] = pred.next_tool_args

            try:
                trajectory[f"observation_{idx}"] = self.tools[pred.next_tool_name](**pred.next_tool_args)
            except Exception as err:
                trajectory[f"observation_{idx}"] = f"Execution error in {pred.next_tool_name}: {err}"

            if pred.next_tool_name == "finish":
                break

        return trajectory

    def _call_with_potential_trajectory_truncation(self, module, trajectory, **input_args):
        for _ in range(3):
            try:
                return module(
                    **input_args,
                    trajectory=self._format_trajectory(trajectory),
                )
            except ValueError:
                trajectory = self.truncate_trajectory(trajectory)
        raise ValueError("The context window was exceeded even after 3 attempts to truncate the trajectory.")

    def _format_trajectory(self, trajectory):
        return "\n".join(f"{k}: {v}" for k, v in trajectory.items())

    def truncate_trajectory(self, trajectory):
        keys = list(trajectory.keys())
        for key in keys[:4]:
            trajectory.pop(key)
        return trajectory


class Predict:
    def __init__(self, signature, lm=None):
        self.signature = signature
        self.lm = lm

    def __call__(self, **kwargs):
        return self.lm(signature=self.signature, **kwargs)
