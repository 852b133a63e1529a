"""Generate smolagents fixtures offline: the real smolagents agents, the real OpenAIModel and
openai client, whose HTTP transport answers from a script (no model API is reached), with
OpenInference's smolagents instrumentation exporting to the OTel SDK.

Every scenario writes:
  <name>.steps.json       agent.memory.get_full_steps() after the run (json.dumps, as a user dumps it)
  <name>.callbacks.jsonl  one step.dict() per line, written by a step_callback registered for
                          ActionStep, PlanningStep and FinalAnswerStep (TaskSteps are not passed
                          to callbacks)
  <name>.run_result.json  the RunResult of run(..., return_full_result=True), when run() returned
  <name>.otlp.json        the OTLP/HTTP JSON body of the exported spans (encode_spans + MessageToJson)
  <name>.expected.json    the ground truth, from what this script observed (never from lifeline)
"""
import dataclasses
import json
import os
import sys

import httpx2
from google.protobuf.json_format import MessageToJson
from openinference.instrumentation.smolagents import SmolagentsInstrumentor
from opentelemetry.exporter.otlp.proto.common.trace_encoder import encode_spans
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

exporter = InMemorySpanExporter()
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(exporter))
SmolagentsInstrumentor().instrument(tracer_provider=provider)

from smolagents import CodeAgent, OpenAIModel, ToolCallingAgent, tool  # noqa: E402
from smolagents.memory import ActionStep, FinalAnswerStep, PlanningStep, TaskStep  # noqa: E402

OUT = os.path.dirname(os.path.abspath(__file__))


class Script:
    """Answers chat.completions requests in order; counts the model calls."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.calls = 0
        self.requested = 0  # tool calls the model asked for (ToolCallingAgent runs every one)
        self.code_blobs = 0  # code actions (CodeAgent: one python_interpreter call each)

    def handler(self, request):
        self.calls += 1
        reply = self.replies.pop(0)
        if isinstance(reply, dict):
            self.requested += len(reply.get("tool_calls") or [])
            self.code_blobs += int("<code>" in (reply.get("content") or ""))
        if isinstance(reply, int):
            return httpx2.Response(reply, json={"error": {"message": "scripted failure", "type": "server_error"}})
        msg = {"role": "assistant", "content": reply.get("content")}
        if reply.get("tool_calls"):
            msg["tool_calls"] = [
                {"id": cid, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
                for cid, name, args in reply["tool_calls"]
            ]
        body = {
            "id": f"chatcmpl-scripted-{self.calls}",
            "object": "chat.completion",
            "created": 1785157562,
            "model": "gpt-scripted",
            "choices": [{"index": 0, "message": msg, "finish_reason": "tool_calls" if reply.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": 100 + self.calls, "completion_tokens": 10 + self.calls, "total_tokens": 110 + 2 * self.calls},
        }
        return httpx2.Response(200, json=body)


def make_model(script):
    client = httpx2.Client(transport=httpx2.MockTransport(script.handler))
    return OpenAIModel(model_id="gpt-scripted", api_base="http://scripted.invalid/v1", api_key="offline",
                       client_kwargs={"http_client": client, "max_retries": 0})


ABORT = {"agent": None}
TOOL_FAILURES = [0]


@tool
def get_weather(city: str) -> str:
    """Get the weather of a city.

    Args:
        city: the city name
    """
    return f"sunny in {city}"


@tool
def get_time(city: str) -> str:
    """Get the local time of a city.

    Args:
        city: the city name
    """
    return f"12:00 in {city}"


@tool
def flaky_lookup(key: str) -> str:
    """Look a key up in a flaky store.

    Args:
        key: the key
    """
    TOOL_FAILURES[0] += 1
    raise RuntimeError(f"store unavailable for {key}")


@tool
def long_job(name: str) -> str:
    """Run a long job; the user aborts the agent while it runs.

    Args:
        name: the job name
    """
    ABORT["agent"].interrupt()
    return f"job {name} finished"


def tc(cid, tool_name, **args):
    return (cid, tool_name, args)


def final(answer, cid="call_final"):
    return {"tool_calls": [tc(cid, "final_answer", answer=answer)]}


def write(name, obj):
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(obj, f, indent=2, default=str)
        f.write("\n")


def otlp_json(spans):
    return json.loads(MessageToJson(encode_spans(spans)))


def observe(agent, script, run_outcomes):
    """Counts from what the script saw: tasks run, the memory's step objects, the HTTP requests
    answered, the tool calls requested (all executed) and the tool executions that raised."""
    runs, steps, model_calls = 0, 0, 0
    tools, failed = script.requested + script.code_blobs, TOOL_FAILURES[0]
    for s in agent.memory.steps:
        if isinstance(s, TaskStep):
            runs += 1
        elif isinstance(s, PlanningStep):
            steps += 1
            model_calls += 1
        elif isinstance(s, ActionStep):
            steps += 1
            model_calls += 1
    assert model_calls == script.calls, (model_calls, script.calls)
    return {"sessions": 1, "runs": runs, "turns": runs, "steps": steps, "model_calls": model_calls,
            "tool_calls": tools, "failed_tool_calls": failed, "runs_detail": run_outcomes}


def scenario(name, make_agent, tasks, notes, script_calls_check=True):
    exporter.clear()
    TOOL_FAILURES[0] = 0
    script = Script(make_agent.replies)
    agent = make_agent(make_model(script))
    ABORT["agent"] = agent
    callback_lines = []

    def log_step(step, agent=None):  # a step_callback writing step.dict() as it is called
        callback_lines.append(json.dumps(step.dict(), default=str))

    for cls in (ActionStep, PlanningStep, FinalAnswerStep):
        agent.step_callbacks.register(cls, log_step)
    outcomes, result = [], None
    for i, (task, kwargs) in enumerate(tasks):
        try:
            r = agent.run(task, return_full_result=True, reset=(i == 0), **kwargs)
            result = r
            if r.state == "success":
                outcomes.append({"status": "completed", "stop_reason": "goal_reached"})
            else:
                outcomes.append({"status": "failed", "stop_reason": "max_steps"})
        except Exception as e:  # what run() raised is the run's outcome
            result = None
            text = f"{type(e).__name__}: {e}"
            if "interrupted" in str(e):
                outcomes.append({"status": "cancelled", "stop_reason": "cancelled"})
            else:
                outcomes.append({"status": "failed", "stop_reason": "model_error" if "Generation" in text else "error"})
            print(f"{name}: run {i + 1} raised {text}", file=sys.stderr)
    truth = observe(agent, script, outcomes)
    truth["notes"] = notes + f"; HTTP chat.completions requests answered: {script.calls}"
    write(f"{name}.steps.json", agent.memory.get_full_steps())
    with open(os.path.join(OUT, f"{name}.callbacks.jsonl"), "w") as f:
        f.write("".join(line + "\n" for line in callback_lines))
    if result is not None and len(tasks) == 1:
        write(f"{name}.run_result.json", dataclasses.asdict(result) if dataclasses.is_dataclass(result) else result.dict())
    write(f"{name}.otlp.json", otlp_json(exporter.get_finished_spans()))
    write(f"{name}.expected.json", truth)
    print(name, json.dumps(truth), file=sys.stderr)


def with_replies(replies):
    def deco(f):
        f.replies = replies
        return f
    return deco


@with_replies([
    {"tool_calls": [tc("call_1", "get_weather", city="Paris"), tc("call_2", "get_time", city="Paris")]},
    {"tool_calls": [tc("call_3", "get_weather", city="Rome")]},
    final("Paris: sunny 12:00; Rome: sunny"),
])
def multi_step(model):
    return ToolCallingAgent(tools=[get_weather, get_time], model=model, max_steps=6)


@with_replies([
    {"tool_calls": [tc("call_1", "flaky_lookup", key="a")]},
    {"tool_calls": [tc("call_2", "get_weather", city="Oslo")]},
    final("store down; Oslo sunny"),
])
def tool_error(model):
    return ToolCallingAgent(tools=[flaky_lookup, get_weather], model=model, max_steps=6)


@with_replies([
    {"tool_calls": [tc("call_1", "get_weather", city="Paris")]},
    {"tool_calls": [tc("call_2", "get_weather", city="Paris")]},
    {"content": "I could not finish: Paris is sunny."},  # provide_final_answer after max steps
])
def max_steps(model):
    return ToolCallingAgent(tools=[get_weather], model=model, max_steps=2)


@with_replies([
    {"tool_calls": [tc("call_1", "long_job", name="backup")]},
])
def aborted(model):
    return ToolCallingAgent(tools=[long_job], model=model, max_steps=6)


@with_replies([
    {"content": "Thought: compute.\n<code>\nx = 6 * 7\nprint(x)\n</code>"},
    {"content": "Thought: done.\n<code>\nfinal_answer(str(x))\n</code>"},
])
def code_agent(model):
    return CodeAgent(tools=[], model=model, max_steps=4)


@with_replies([
    {"tool_calls": [tc("call_1", "get_weather", city="Paris")]},
    final("sunny"),
    {"tool_calls": [tc("call_3", "get_time", city="Paris")]},
    final("12:00", cid="call_final2"),
])
def two_runs(model):
    return ToolCallingAgent(tools=[get_weather, get_time], model=model, max_steps=6)


@with_replies([
    {"content": "1. Get the weather of Paris.\n2. Answer."},  # the initial plan (planning step)
    {"tool_calls": [tc("call_1", "get_weather", city="Paris")]},
    final("sunny"),
])
def planning(model):
    return ToolCallingAgent(tools=[get_weather], model=model, max_steps=4, planning_interval=5)


@with_replies([500])
def model_error(model):
    return ToolCallingAgent(tools=[get_weather], model=model, max_steps=3)


SCENARIOS = {}


def add(name, make_agent, tasks, notes):
    SCENARIOS[name] = (make_agent, tasks, notes)


add("01_multi_step_tools", multi_step, [("Weather and time in Paris, then Rome?", {})],
    "ToolCallingAgent: 2 parallel tool calls in step 1, 1 in step 2, final_answer tool in step 3")
add("02_tool_error", tool_error, [("Look up a, then Oslo weather", {})],
    "flaky_lookup raises: AgentToolExecutionError stored on step 1, returned to the model")
add("03_max_steps", max_steps, [("Weather forever", {})],
    "max_steps=2: two tool steps then the forced final-answer step 3 with AgentMaxStepsError")
add("04_aborted", aborted, [("Run the backup", {})],
    "agent.interrupt() called inside the tool: run() raises AgentError('Agent interrupted.') before step 2")
add("05_code_agent", code_agent, [("What is 6*7?", {})],
    "CodeAgent: python_interpreter call per step, final_answer in step 2")
add("06_two_runs", two_runs, [("Weather in Paris?", {}), ("And the time?", {})],
    "run(reset=False) twice on one memory: two TaskSteps")
add("08_planning", planning, [("Weather in Paris?", {})],
    "planning_interval=5: a PlanningStep (one model call, no tools) before action step 1")
add("07_model_error", model_error, [("Weather?", {})],
    "HTTP 500 from the provider: AgentGenerationError raised from run(); step 1 stored without model output")


if __name__ == "__main__":
    # one process per scenario: a run that raises (04_aborted) leaves its AGENT span open in the
    # OTel context, which would become the dangling parent of every later scenario's spans
    if len(sys.argv) > 1:
        for name in sys.argv[1:]:
            scenario(name, *SCENARIOS[name])
    else:
        import subprocess
        for name in SCENARIOS:
            subprocess.run([sys.executable, __file__, name], check=True)
