#!/usr/bin/env python3
"""Generate smolagents memory-step fixtures the way smolagents itself serialises them.

No smolagents producer can run here (PyPI is not reachable), so this script re-declares the
dataclasses of smolagents/src/smolagents/memory.py and monitoring.py (field names, field order,
defaults and the hand-written dict() methods) and builds the memories that the agent loop in
agents.py (_run_stream, _handle_max_steps_reached) would leave behind for each scenario. The
output is what `agent.memory.get_full_steps()` returns (a list of step.dict()), what
`agent.run(task, return_full_result=True)` returns (RunResult, dataclasses.asdict), and what a
step_callback writing `json.dumps(step.dict())` per step would log.

Run: python3 gen_fixtures.py   (writes the *.json / *.jsonl files next to it)
"""
import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
T0 = 1785157562.25  # epoch seconds (time.time()), as smolagents' Timing records


# --- monitoring.py -------------------------------------------------------------------------
@dataclass
class TokenUsage:
    input_tokens: int
    output_tokens: int
    total_tokens: int = field(init=False)

    def __post_init__(self):
        self.total_tokens = self.input_tokens + self.output_tokens

    def dict(self):
        return {"input_tokens": self.input_tokens, "output_tokens": self.output_tokens, "total_tokens": self.total_tokens}


@dataclass
class Timing:
    start_time: float
    end_time: float | None = None

    @property
    def duration(self):
        return None if self.end_time is None else self.end_time - self.start_time

    def dict(self):
        return {"start_time": self.start_time, "end_time": self.end_time, "duration": self.duration}


# --- utils.py: AgentError hierarchy ----------------------------------------------------------
class AgentError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message

    def dict(self):
        return {"type": self.__class__.__name__, "message": str(self.message)}


class AgentParsingError(AgentError): pass
class AgentExecutionError(AgentError): pass
class AgentMaxStepsError(AgentError): pass
class AgentToolCallError(AgentExecutionError): pass
class AgentToolExecutionError(AgentExecutionError): pass
class AgentGenerationError(AgentError): pass


# --- models.py -------------------------------------------------------------------------------
@dataclass
class ChatMessageToolCallFunction:
    arguments: Any
    name: str
    description: str | None = None


@dataclass
class ChatMessageToolCall:
    function: ChatMessageToolCallFunction
    id: str
    type: str


@dataclass
class ChatMessage:
    role: str
    content: str | list | None = None
    tool_calls: list | None = None
    raw: Any | None = None
    token_usage: TokenUsage | None = None


def msg_dict(m):
    # get_dict_from_nested_dataclasses(msg, ignore_key="raw") keeps every field
    return None if m is None else asdict(m)


# --- memory.py -------------------------------------------------------------------------------
@dataclass
class ToolCall:
    name: str
    arguments: Any
    id: str

    def dict(self):
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass
class TaskStep:
    task: str
    task_images: list | None = None

    def dict(self):
        return asdict(self)


@dataclass
class PlanningStep:
    model_input_messages: list
    model_output_message: ChatMessage
    plan: str
    timing: Timing
    token_usage: TokenUsage | None = None

    def dict(self):
        return {
            "model_input_messages": [msg_dict(m) for m in self.model_input_messages],
            "model_output_message": msg_dict(self.model_output_message),
            "plan": self.plan,
            "timing": self.timing.dict(),
            "token_usage": asdict(self.token_usage) if self.token_usage else None,
        }


@dataclass
class ActionStep:
    step_number: int
    timing: Timing
    model_input_messages: list | None = None
    tool_calls: list | None = None
    error: AgentError | None = None
    model_output_message: ChatMessage | None = None
    model_output: str | None = None
    code_action: str | None = None
    observations: str | None = None
    observations_images: list | None = None
    action_output: Any = None
    token_usage: TokenUsage | None = None
    is_final_answer: bool = False

    def dict(self):
        return {
            "step_number": self.step_number,
            "timing": self.timing.dict(),
            "model_input_messages": [msg_dict(m) for m in self.model_input_messages] if self.model_input_messages else None,
            "tool_calls": [tc.dict() for tc in self.tool_calls] if self.tool_calls else [],
            "error": self.error.dict() if self.error else None,
            "model_output_message": msg_dict(self.model_output_message),
            "model_output": self.model_output,
            "code_action": self.code_action,
            "observations": self.observations,
            "observations_images": None,
            "action_output": self.action_output,
            "token_usage": asdict(self.token_usage) if self.token_usage else None,
            "is_final_answer": self.is_final_answer,
        }


@dataclass
class FinalAnswerStep:
    output: Any


@dataclass
class RunResult:
    output: Any
    state: str
    steps: list
    token_usage: TokenUsage | None
    timing: Timing


# --- scenario helpers ------------------------------------------------------------------------
clock = [T0]


def tick(dt):
    clock[0] = round(clock[0] + dt, 3)
    return clock[0]


def sys_msg():
    return ChatMessage(role="system", content=[{"type": "text", "text": "You are an expert assistant who can solve any task using code blobs."}])


def code_step(n, memory_len, code, thought, obs, out=None, final=False, error=None, tin=2100, tout=60):
    start = tick(0.01)
    usage = TokenUsage(tin, tout)
    model_text = f"Thought: {thought}\n<code>\n{code}\n</code>"
    step = ActionStep(
        step_number=n,
        timing=Timing(start, tick(1.2)),
        model_input_messages=[sys_msg()],
        tool_calls=[ToolCall(name="python_interpreter", arguments=code, id=f"call_{memory_len}")],
        error=error,
        model_output_message=ChatMessage(role="assistant", content=model_text, token_usage=usage),
        model_output=model_text,
        code_action=code,
        observations=obs,
        action_output=out,
        token_usage=usage,
        is_final_answer=final,
    )
    return step


def tc_step(n, calls, obs, out=None, final=False, error=None, tin=900, tout=40):
    start = tick(0.01)
    usage = TokenUsage(tin, tout)
    mcalls = [ChatMessageToolCall(function=ChatMessageToolCallFunction(arguments=a, name=nm), id=i, type="function") for (i, nm, a) in calls]
    return ActionStep(
        step_number=n,
        timing=Timing(start, tick(0.8)),
        model_input_messages=[sys_msg()],
        tool_calls=[ToolCall(name=nm, arguments=a, id=i) for (i, nm, a) in calls],
        error=error,
        model_output_message=ChatMessage(role="assistant", content=None, tool_calls=mcalls, token_usage=usage),
        model_output=None,
        observations=obs,
        action_output=out,
        token_usage=usage,
        is_final_answer=final,
    )


def write(name, obj):
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(obj, f, indent=2)
        f.write("\n")


def write_expected(name, **kw):
    write(name + ".expected.json", kw)


# 01: CodeAgent, two steps, final answer (get_full_steps() list).
clock[0] = T0
mem = [TaskStep(task="What is 7 * 6, plus the number of letters in 'smolagents'?")]
mem.append(code_step(1, len(mem), "n = len('smolagents')\nprint(n)", "Count the letters first.", "Execution logs:\n10\nLast output from code snippet:\nNone"))
mem.append(code_step(2, len(mem), "final_answer(7 * 6 + 10)", "42 + 10.", "Execution logs:\nLast output from code snippet:\n52", out=52, final=True))
write("01_code_agent.steps.json", [s.dict() for s in mem])
write_expected("01_code_agent", sessions=1, runs=1, turns=1, steps=2, model_calls=2, tool_calls=2, failed_tool_calls=0,
               runs_detail=[{"status": "completed", "stop_reason": "goal_reached"}],
               notes="CodeAgent: python_interpreter call per step (id call_<len(memory.steps)>), final_answer in step 2")

# 02: ToolCallingAgent, planning step, parallel tool calls, a failing tool (AgentToolExecutionError,
# recovered), final answer; dumped as RunResult (return_full_result=True).
clock[0] = T0 + 100
start = clock[0]
mem = [TaskStep(task="Weather in Paris and Berlin, then the order status of A-1001.")]
pt = tick(0.01)
mem.append(PlanningStep(model_input_messages=[sys_msg()], model_output_message=ChatMessage(role="assistant", content="1. weather x2\n2. order"),
                        plan="Here are the facts I know and the plan of action:\n1. weather x2\n2. order", timing=Timing(pt, tick(0.5)), token_usage=TokenUsage(500, 30)))
mem.append(tc_step(1, [("call_a1", "get_weather", {"city": "Paris"}), ("call_a2", "get_weather", {"city": "Berlin"})],
                   "Weather in Paris: 18C\nWeather in Berlin: 15C"))
mem.append(tc_step(2, [("call_b1", "lookup_order", {"order_id": "A-1001"})], None,
                   error=AgentToolExecutionError("Error executing tool 'lookup_order' with arguments {\"order_id\": \"A-1001\"}: ConnectionError: order database unavailable\nPlease try again or use another tool")))
mem.append(tc_step(3, [("call_c1", "final_answer", {"answer": "Paris 18C, Berlin 15C; order status unavailable."})],
                   "Paris 18C, Berlin 15C; order status unavailable.", out="Paris 18C, Berlin 15C; order status unavailable.", final=True))
usage = TokenUsage(500 + 900 * 3, 30 + 40 * 3)
rr = RunResult(output="Paris 18C, Berlin 15C; order status unavailable.", state="success", steps=[s.dict() for s in mem],
               token_usage=usage, timing=Timing(start, tick(0.01)))
d = asdict(rr)
d["steps"] = [s.dict() for s in mem]
d["timing"] = rr.timing.dict()
write("02_tool_calling_run_result.json", d)
write_expected("02_tool_calling_run_result", sessions=1, runs=1, turns=1, steps=4, model_calls=4, tool_calls=4, failed_tool_calls=1,
               runs_detail=[{"status": "completed", "stop_reason": "goal_reached"}],
               notes="planning step (model call, no tools) + 2 parallel tool calls + a tool error returned to the model (AgentToolExecutionError) + final_answer tool")

# 03: max_steps=2 reached: two steps without an answer, then _handle_max_steps_reached appends
# step 3 (= max_steps + 1) with AgentMaxStepsError and the forced answer; RunResult state
# max_steps_error.
clock[0] = T0 + 200
start = clock[0]
mem = [TaskStep(task="Find the retry policy v3 in the docs.")]
mem.append(tc_step(1, [("call_1", "search_docs", {"query": "retry policy v1"})], "No exact match."))
mem.append(tc_step(2, [("call_2", "search_docs", {"query": "retry policy v2"})], "No exact match."))
fs = tick(0.01)
final = ActionStep(step_number=3, timing=Timing(fs, tick(0.7)), model_input_messages=[sys_msg()], tool_calls=None,
                   error=AgentMaxStepsError("Reached max steps."),
                   model_output_message=ChatMessage(role="assistant", content="I could not find retry policy v3."),
                   action_output="I could not find retry policy v3.", token_usage=TokenUsage(700, 20))
mem.append(final)
d = asdict(RunResult(output=final.action_output, state="max_steps_error", steps=[], token_usage=None, timing=Timing(start, tick(0.01))))
d["steps"] = [s.dict() for s in mem]
d["timing"] = Timing(start, clock[0]).dict()
write("03_max_steps.run_result.json", d)
write_expected("03_max_steps.run_result", sessions=1, runs=1, turns=1, steps=3, model_calls=3, tool_calls=2, failed_tool_calls=0,
               runs_detail=[{"status": "failed", "stop_reason": "max_steps"}],
               notes="max_steps=2: the forced final-answer step 3 carries AgentMaxStepsError; state max_steps_error")

# 04: two run(..., reset=False) calls on one memory, logged by a step_callback (one step.dict() per
# line); the second run's last step is still running (end_time null) when the log was cut.
clock[0] = T0 + 300
mem = [TaskStep(task="What is 2 + 2?")]
mem.append(code_step(1, len(mem), "final_answer(4)", "Easy.", "Execution logs:\n4", out=4, final=True))
mem.append(TaskStep(task="And times 10?"))
s = code_step(1, len(mem), "final_answer(40)", "4 * 10.", None)
s.timing.end_time = None
s.observations, s.token_usage, s.model_output_message, s.model_output, s.tool_calls, s.code_action = None, None, None, None, None, None
mem.append(s)
with open(os.path.join(HERE, "04_two_runs_callbacks.steps.jsonl"), "w") as f:
    for st in mem:
        f.write(json.dumps(st.dict()) + "\n")
        if isinstance(st, ActionStep) and st.is_final_answer:
            f.write(json.dumps(asdict(FinalAnswerStep(output=st.action_output))) + "\n")
write_expected("04_two_runs_callbacks.steps", sessions=1, runs=2, turns=2, steps=2, model_calls=1, tool_calls=1, failed_tool_calls=0,
               runs_detail=[{"status": "completed", "stop_reason": "goal_reached"}, {"status": "running", "stop_reason": ""}],
               notes="reset=False: two tasks in one memory (one session, two runs); the second run's step has end_time null (still running): reported open, its model call not yet made")

# 05: AgentGenerationError: the model call itself failed. _run_stream re-raises it *before*
# `action_step.error = e` (only other AgentErrors are stored), but its `finally` still finalises
# the step (end_time) and appends it to memory: the dump shows an ended step with no model output,
# no tool call and no error, after which run() raised.
clock[0] = T0 + 400
mem = [TaskStep(task="Summarise the report.")]
gs = tick(0.01)
mem.append(ActionStep(step_number=1, timing=Timing(gs, tick(0.3)), model_input_messages=[sys_msg()]))
write("05_generation_error.steps.json", [s.dict() for s in mem])
write_expected("05_generation_error.steps", sessions=1, runs=1, turns=1, steps=1, model_calls=1, tool_calls=0, failed_tool_calls=0,
               runs_detail=[{"status": "failed", "stop_reason": "model_error"}],
               notes="AgentGenerationError is raised out of run(): the step's model call failed and so did the run")
