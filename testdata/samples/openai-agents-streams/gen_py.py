"""Generate OpenAI Agents SDK (Python, openai-agents 0.24.0) run-stream fixtures offline.

`Runner.run_streamed(...)` returns a RunResultStreaming whose `stream_events()` yields
RawResponsesStreamEvent (type raw_response_event, data = the Responses API stream event, a
pydantic model), RunItemStreamEvent (run_item_stream_event: name + item, a RunItem dataclass
holding the pydantic raw_item and the Agent) and AgentUpdatedStreamEvent (new_agent). The SDK
has no JSON form for them; this script writes each as users do, with `to_json` below: pydantic
models by `model_dump(mode="json")`, dataclasses by their fields (recursively), an Agent by
`{"name": agent.name}` (an Agent holds functions and cannot be serialized), one JSON object per
line. Resumes (RunState.to_json() in process 1, RunState.from_json + approve/reject in process 2)
append to the same file.

The real OpenAIResponsesModel runs over the real openai client whose HTTP transport answers
/responses with a scripted SSE stream (response.created, response.output_item.added/done,
response.completed). Ground truth (<name>.expected.json): what this script observed.

Usage: python3 -m venv v && v/bin/pip install -r requirements-py.txt && v/bin/python gen_py.py
"""
import asyncio
import dataclasses
import json
import os
import subprocess
import sys

import httpx2
import pydantic
from openai import AsyncOpenAI

from agents import Agent, Runner, RunState, function_tool, set_tracing_disabled
from agents.exceptions import MaxTurnsExceeded
from agents.models.openai_responses import OpenAIResponsesModel

OUT = os.path.dirname(os.path.abspath(__file__))
set_tracing_disabled(True)


def to_json(x):
    """The JSON form of a stream event: what json.dumps(ev, default=…) users write gives."""
    if isinstance(x, Agent):
        return {"name": x.name}
    if isinstance(x, pydantic.BaseModel):
        return x.model_dump(mode="json")
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: to_json(getattr(x, f.name)) for f in dataclasses.fields(x) if not f.name.startswith("_")}
    if isinstance(x, dict):
        return {str(k): to_json(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [to_json(v) for v in x]
    if isinstance(x, (str, int, float, bool)) or x is None:
        return x
    return str(x)


class Script:
    def __init__(self, replies, obs):
        self.replies, self.calls, self.obs = list(replies), 0, obs

    def handler(self, request):
        self.calls += 1
        self.obs["model_calls"] += 1
        reply = self.replies.pop(0)
        output = []
        if "text" in reply:
            output.append({"id": f"msg_{self.calls}", "type": "message", "role": "assistant", "status": "completed",
                           "content": [{"type": "output_text", "text": reply["text"], "annotations": []}]})
        for cid, name, args in reply.get("calls", []):
            output.append({"id": f"fc_{cid}", "type": "function_call", "call_id": cid, "name": name,
                           "arguments": json.dumps(args), "status": "completed"})
        body = {"id": f"resp_scripted_{self.calls}", "object": "response", "created_at": 1785157562,
                "model": "gpt-scripted", "status": "completed", "output": output, "parallel_tool_calls": True,
                "tool_choice": "auto", "tools": [], "error": None, "incomplete_details": None,
                "usage": {"input_tokens": 100 + self.calls, "output_tokens": 10 + self.calls,
                          "total_tokens": 110 + 2 * self.calls, "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 0}}}
        started = dict(body, status="in_progress", output=[], usage=None)
        events = [{"type": "response.created", "sequence_number": 0, "response": started}]
        for i, item in enumerate(output):
            events.append({"type": "response.output_item.added", "sequence_number": len(events), "output_index": i, "item": item})
            events.append({"type": "response.output_item.done", "sequence_number": len(events), "output_index": i, "item": item})
        events.append({"type": "response.completed", "sequence_number": len(events), "response": body})
        sse = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
        return httpx2.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})


def model_for(script):
    client = AsyncOpenAI(api_key="offline", base_url="http://scripted.invalid/v1", max_retries=0,
                         http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(script.handler)))
    return OpenAIResponsesModel(model="gpt-scripted", openai_client=client)


OBS = {}
GATE = {}


def new_obs():
    OBS.clear()
    OBS.update(model_calls=0, tool_calls=0, failed_tool_calls=0, cancelled_tool_calls=0, tool_only_steps=0, turns=0, runs_detail=[])


@function_tool
def get_weather(city: str) -> str:
    """Get the weather of a city."""
    OBS["tool_calls"] += 1
    return f"sunny in {city}"


@function_tool
def flaky_lookup(key: str) -> str:
    """Look a key up in a flaky store."""
    OBS["tool_calls"] += 1
    OBS["failed_tool_calls"] += 1
    raise RuntimeError(f"store unavailable for {key}")


@function_tool(needs_approval=True)
def delete_file(path: str) -> str:
    """Delete a file (needs approval)."""
    OBS["tool_calls"] += 1
    return f"deleted {path}"


@function_tool
async def long_job(name: str) -> str:
    """A long job; the caller cancels the run while it runs."""
    OBS["tool_calls"] += 1
    GATE["started"].set()
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        OBS["cancelled_tool_calls"] += 1
        raise
    return "never"


def c(cid, tool, **args):
    return (cid, tool, args)


REPLIES = {
    "11_py_multi_step_tools": [{"calls": [c("call_1", "get_weather", city="Paris"), c("call_2", "get_weather", city="Rome")]},
                               {"calls": [c("call_3", "get_weather", city="Oslo")]},
                               {"text": "Paris, Rome and Oslo are sunny."}],
    "12_py_tool_error": [{"calls": [c("call_1", "flaky_lookup", key="a")]}, {"text": "The store is down."}],
    "13_py_max_turns": [{"calls": [c("call_1", "get_weather", city="Paris")]}, {"calls": [c("call_2", "get_weather", city="Rome")]},
                        {"text": "never"}],
    "14_py_approval_approve": [{"calls": [c("call_1", "delete_file", path="/tmp/a.txt")]}, {"text": "Deleted /tmp/a.txt."}],
    "15_py_approval_reject": [{"calls": [c("call_1", "delete_file", path="/tmp/a.txt")]}, {"text": "I did not delete it."}],
    "16_py_abort_mid_tool": [{"calls": [c("call_1", "long_job", name="backup")]}, {"text": "never"}],
}
TOOLS = {"11_py_multi_step_tools": [get_weather], "12_py_tool_error": [flaky_lookup], "13_py_max_turns": [get_weather],
         "14_py_approval_approve": [delete_file], "15_py_approval_reject": [delete_file], "16_py_abort_mid_tool": [long_job]}


async def stream(f, result):
    async for ev in result.stream_events():
        f.write(json.dumps(to_json(ev)) + "\n")


def outcome(result):
    if result.interruptions:
        return {"status": "waiting", "stop_reason": "awaiting_approval"}
    return {"status": "completed", "stop_reason": "goal_reached"}


async def run_plain(name, replies, max_turns=10):
    script = Script(replies, OBS)
    agent = Agent(name="assistant", instructions="Help.", tools=TOOLS[name], model=model_for(script))
    OBS["turns"] += 1
    with open(os.path.join(OUT, name + ".stream.jsonl"), "w") as f:
        result = Runner.run_streamed(agent, "Do the task.", max_turns=max_turns)
        try:
            await stream(f, result)
            OBS["runs_detail"].append(outcome(result))
        except MaxTurnsExceeded:
            OBS["runs_detail"].append({"status": "failed", "stop_reason": "max_turns"})
        if name.startswith("14") or name.startswith("15"):
            with open(os.path.join(OUT, name + ".run_state.json"), "w") as s:
                json.dump(result.to_state().to_json(), s)


async def run_abort(name, replies):
    script = Script(replies, OBS)
    agent = Agent(name="assistant", instructions="Help.", tools=TOOLS[name], model=model_for(script))
    GATE["started"] = asyncio.Event()
    OBS["turns"] += 1
    with open(os.path.join(OUT, name + ".stream.jsonl"), "w") as f:
        result = Runner.run_streamed(agent, "Run the backup.")
        task = asyncio.ensure_future(stream(f, result))
        await GATE["started"].wait()
        await asyncio.sleep(0.05)
        result.cancel()  # the documented way to stop a streamed run
        try:
            await task
        except asyncio.CancelledError:
            pass
        await asyncio.sleep(0.05)
        OBS["runs_detail"].append({"status": "cancelled", "stop_reason": "cancelled"})


async def resume(name, decision, replies_left):
    """Process 2: load the serialized state, answer the approval, stream the rest."""
    script = Script(replies_left, OBS)
    agent = Agent(name="assistant", instructions="Help.", tools=TOOLS[name], model=model_for(script))
    with open(os.path.join(OUT, name + ".run_state.json")) as s:
        state = await RunState.from_json(agent, json.load(s))
    for it in state.get_interruptions():
        state.approve(it) if decision == "approve" else state.reject(it)
    with open(os.path.join(OUT, name + ".stream.jsonl"), "a") as f:
        result = Runner.run_streamed(agent, state)
        await stream(f, result)
    return outcome(result)


def write_expected(name, notes):
    want = {"sessions": 1, "runs": len(OBS["runs_detail"]), "turns": OBS["turns"],
            "steps": OBS["model_calls"] + OBS["tool_only_steps"], "model_calls": OBS["model_calls"],
            "tool_calls": OBS["tool_calls"], "failed_tool_calls": OBS["failed_tool_calls"],
            "runs_detail": OBS["runs_detail"], "notes": notes}
    with open(os.path.join(OUT, name + ".expected.json"), "w") as f:
        json.dump(want, f, indent=1)
        f.write("\n")
    print(name, json.dumps(OBS))


async def main():
    if len(sys.argv) > 1 and sys.argv[1] == "resume":
        name, decision = sys.argv[2], sys.argv[3]
        new_obs()
        out = await resume(name, decision, REPLIES[name][1:])
        print(json.dumps({"observed": dict(OBS), "outcome": out}))
        return
    notes = {
        "11_py_multi_step_tools": "two tool steps (2 parallel calls, then 1), then the answer",
        "12_py_tool_error": "the tool raises; the SDK returns the error text to the model, which answers",
        "13_py_max_turns": "max_turns=2: the stream raises MaxTurnsExceeded after the 2nd step's tool ran",
        "16_py_abort_mid_tool": "RunResultStreaming.cancel() while the tool runs: the tool is cancelled (CancelledError), the run is cancelled",
    }
    for name in ["11_py_multi_step_tools", "12_py_tool_error", "13_py_max_turns", "16_py_abort_mid_tool"]:
        new_obs()
        if name.startswith("16"):
            await run_abort(name, REPLIES[name])
        else:
            await run_plain(name, REPLIES[name], max_turns=2 if name.startswith("13") else 10)
        write_expected(name, notes[name])
    for name, decision in [("14_py_approval_approve", "approve"), ("15_py_approval_reject", "reject")]:
        new_obs()
        await run_plain(name, REPLIES[name][:1])  # process 1: until the interruption
        OBS["model_calls"] -= 0
        p = subprocess.run([sys.executable, __file__, "resume", name, decision], check=True, capture_output=True, text=True)
        second = json.loads(p.stdout.strip().splitlines()[-1])
        o2 = second["observed"]
        OBS["turns"] += 1
        OBS["model_calls"] += o2["model_calls"]
        OBS["tool_calls"] += o2["tool_calls"]
        if o2["tool_calls"]:
            OBS["tool_only_steps"] += 1  # the resume runs the approved call before the model
        OBS["runs_detail"] = [second["outcome"]]  # one run: the RunState resume continues it
        os.remove(os.path.join(OUT, name + ".run_state.json"))
        write_expected(name, f"needs_approval tool; process 1 streams until the interruption and writes RunState.to_json(); process 2 loads it (RunState.from_json), {decision}s, streams the rest into the same file: one run, two turns")


asyncio.run(main())
