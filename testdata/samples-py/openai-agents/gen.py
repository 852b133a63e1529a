"""Generate OpenAI Agents SDK (Python) trace exports offline.

The real SDK runs the real OpenAIResponsesModel over the real openai client, whose HTTP transport
answers /responses from a script (no model API is reached). A TracingProcessor installed with
set_trace_processors writes trace.export() when a trace starts and span.export() when a span ends,
one JSON object per line: what BatchTraceProcessor queues and BackendSpanExporter posts.

Approval scenarios run in two processes: `gen.py pause NAME` runs until the needs_approval tool
interrupts and writes RunState.to_json(); `gen.py resume NAME approve|reject` loads it with
RunState.from_json in a new process, decides, and runs again, appending to the same trace file.
Ground truth (<name>.expected.json) is what the script observed, never lifeline's reading.
"""
import asyncio
import json
import os
import subprocess
import sys

import httpx2
from openai import AsyncOpenAI

from agents import (Agent, GuardrailFunctionOutput, ModelSettings, RunConfig, Runner, RunState, function_tool,
                    handoff, output_guardrail, set_trace_processors)
from agents.exceptions import MaxTurnsExceeded, OutputGuardrailTripwireTriggered
from agents.models.openai_chatcompletions import OpenAIChatCompletionsModel
from agents.models.openai_responses import OpenAIResponsesModel
from agents.tracing import TracingProcessor

OUT = os.path.dirname(os.path.abspath(__file__))


class LineWriter(TracingProcessor):
    """Writes what BatchTraceProcessor would export: the trace at start, each span at its end."""

    def __init__(self):
        self.f = None

    def open(self, path, mode):
        self.f = open(path, mode)

    def _write(self, item):
        data = item.export()
        if data and self.f:
            self.f.write(json.dumps(data) + "\n")
            self.f.flush()

    def on_trace_start(self, trace):
        self._write(trace)

    def on_trace_end(self, trace):
        pass

    def on_span_start(self, span):
        pass

    def on_span_end(self, span):
        self._write(span)

    def shutdown(self):
        pass

    def force_flush(self):
        pass


WRITER = LineWriter()
set_trace_processors([WRITER])


class Script:
    """Answers POST /responses in order."""

    def __init__(self, replies):
        self.replies = list(replies)
        self.calls = 0
        self.requested = 0

    def handler(self, request):
        self.calls += 1
        reply = self.replies.pop(0)
        if isinstance(reply, int):
            return httpx2.Response(reply, json={"error": {"message": "scripted failure", "type": "server_error"}})
        if request.url.path.endswith("/chat/completions"):
            return self.chat(reply)
        output = []
        if "text" in reply:
            output.append({"id": f"msg_{self.calls}", "type": "message", "role": "assistant", "status": "completed",
                           "content": [{"type": "output_text", "text": reply["text"], "annotations": []}]})
        for cid, name, args in reply.get("calls", []):
            self.requested += 1
            output.append({"id": f"fc_{cid}", "type": "function_call", "call_id": cid, "name": name,
                           "arguments": json.dumps(args), "status": "completed"})
        body = {"id": f"resp_scripted_{self.calls}", "object": "response", "created_at": 1785157562,
                "model": "gpt-scripted", "status": "completed", "output": output, "parallel_tool_calls": True,
                "tool_choice": "auto", "tools": [], "error": None, "incomplete_details": None,
                "usage": {"input_tokens": 100 + self.calls, "output_tokens": 10 + self.calls,
                          "total_tokens": 110 + 2 * self.calls,
                          "input_tokens_details": {"cached_tokens": 0},
                          "output_tokens_details": {"reasoning_tokens": 0}}}
        if json.loads(request.content or b"{}").get("stream"):
            # a streamed request (Runner.run_streamed): the SSE stream, reduced to its last event
            event = {"type": "response.completed", "sequence_number": 1, "response": body}
            sse = f"event: response.completed\ndata: {json.dumps(event)}\n\n"
            return httpx2.Response(200, content=sse.encode(), headers={"content-type": "text/event-stream"})
        return httpx2.Response(200, json=body)


    def chat(self, reply):
        """A chat.completions answer (OpenAIChatCompletionsModel)."""
        msg = {"role": "assistant", "content": reply.get("text")}
        if reply.get("calls"):
            self.requested += len(reply["calls"])
            msg["tool_calls"] = [{"id": cid, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
                                 for cid, n, a in reply["calls"]]
        body = {"id": f"chatcmpl-scripted-{self.calls}", "object": "chat.completion", "created": 1785157562,
                "model": "gpt-scripted", "choices": [{"index": 0, "message": msg,
                                                      "finish_reason": "tool_calls" if reply.get("calls") else "stop"}],
                "usage": {"prompt_tokens": 100 + self.calls, "completion_tokens": 10 + self.calls,
                          "total_tokens": 110 + 2 * self.calls}}
        return httpx2.Response(200, json=body)


def model_for(script, chat=False):
    if chat:
        client = AsyncOpenAI(api_key="offline", base_url="http://scripted.invalid/v1", max_retries=0,
                             http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(script.handler)))
        return OpenAIChatCompletionsModel(model="gpt-scripted", openai_client=client)

    client = AsyncOpenAI(api_key="offline", base_url="http://scripted.invalid/v1", max_retries=0,
                         http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(script.handler)))
    return OpenAIResponsesModel(model="gpt-scripted", openai_client=client)


TOOLS = {"ok": 0, "failed": 0, "cancelled": 0}
GATE = {}


@function_tool
def get_weather(city: str) -> str:
    """Get the weather of a city."""
    TOOLS["ok"] += 1
    return f"sunny in {city}"


@function_tool
def get_time(city: str) -> str:
    """Get the local time of a city."""
    TOOLS["ok"] += 1
    return f"12:00 in {city}"


@function_tool
def flaky_lookup(key: str) -> str:
    """Look a key up in a flaky store."""
    TOOLS["failed"] += 1
    raise RuntimeError(f"store unavailable for {key}")


@function_tool(needs_approval=True)
def delete_file(path: str) -> str:
    """Delete a file (needs approval)."""
    TOOLS["ok"] += 1
    return f"deleted {path}"


@function_tool
async def long_job(name: str) -> str:
    """A long job; the caller cancels the run while it runs."""
    GATE["started"].set()
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        TOOLS["cancelled"] += 1
        raise
    return "never"


def c(cid, tool_name, **args):
    return (cid, tool_name, args)


REPLIES = {
    "01_multi_step_tools": [{"calls": [c("call_1", "get_weather", city="Paris"), c("call_2", "get_time", city="Paris")]},
                            {"calls": [c("call_3", "get_weather", city="Rome")]},
                            {"text": "Paris: sunny 12:00; Rome: sunny."}],
    "02_tool_error": [{"calls": [c("call_1", "flaky_lookup", key="a")]},
                      {"calls": [c("call_2", "get_weather", city="Oslo")]},
                      {"text": "The store is down; Oslo is sunny."}],
    "03_max_turns": [{"calls": [c("call_1", "get_weather", city="Paris")]},
                     {"calls": [c("call_2", "get_weather", city="Rome")]},
                     {"text": "never reached"}],
    "04_approval_approve": [{"calls": [c("call_1", "delete_file", path="/tmp/a.txt")]},
                            {"text": "Deleted /tmp/a.txt."}],
    "05_approval_reject": [{"calls": [c("call_1", "delete_file", path="/tmp/a.txt")]},
                           {"text": "I did not delete it, as you asked."}],
    "06_aborted": [{"calls": [c("call_1", "long_job", name="backup")]}, {"text": "never reached"}],
    "07_model_error": [500],
    "08_handoff": [{"calls": [c("call_1", "transfer_to_weather_agent")]},
                   {"calls": [c("call_2", "get_weather", city="Paris")]},
                   {"text": "Paris is sunny."}],
    "09_output_guardrail": [{"text": "The secret is 42."}],
    "10_streamed": [{"calls": [c("call_1", "get_weather", city="Paris")]}, {"text": "Paris is sunny."}],
    "12_chat_approval_approve": [{"calls": [c("call_1", "delete_file", path="/tmp/a.txt"), c("call_2", "get_weather", city="Oslo")]},
                                 {"text": "Deleted /tmp/a.txt; Oslo is sunny."}],
    "13_chat_tools": [{"calls": [c("call_1", "get_weather", city="Paris")]}, {"text": "Paris is sunny."}],
    "11_agent_as_tool": [{"calls": [c("call_1", "ask_weather_expert", input="Paris?")]},
                         {"calls": [c("call_2", "get_weather", city="Paris")]},
                         {"text": "Expert: sunny."},
                         {"text": "The expert says Paris is sunny."}],
}
TOOLSETS = {"01_multi_step_tools": [get_weather, get_time], "02_tool_error": [flaky_lookup, get_weather],
            "03_max_turns": [get_weather], "04_approval_approve": [delete_file],
            "05_approval_reject": [delete_file], "06_aborted": [long_job], "07_model_error": [get_weather],
            "12_chat_approval_approve": [delete_file, get_weather], "13_chat_tools": [get_weather],
            "08_handoff": [], "09_output_guardrail": [], "10_streamed": [get_weather], "11_agent_as_tool": []}


@output_guardrail
async def no_secrets(ctx, agent, output):
    return GuardrailFunctionOutput(output_info="checked", tripwire_triggered="secret" in str(output))


def agent_for(name, script):
    if name == "08_handoff":
        weather = Agent(name="weather_agent", instructions="Weather.", tools=[get_weather], model=model_for(script))
        return Agent(name="Assistant", instructions="Hand off.", handoffs=[handoff(weather)], model=model_for(script))
    if name == "09_output_guardrail":
        return Agent(name="Assistant", instructions="Answer.", output_guardrails=[no_secrets], model=model_for(script))
    if name == "11_agent_as_tool":
        expert = Agent(name="weather_expert", instructions="Weather.", tools=[get_weather], model=model_for(script))
        return Agent(name="Assistant", instructions="Ask the expert.", model=model_for(script),
                     tools=[expert.as_tool(tool_name="ask_weather_expert", tool_description="Ask the weather expert.")])
    return Agent(name="Assistant", instructions="Use the tools.", tools=TOOLSETS[name], model=model_for(script, chat="_chat_" in name),
                 model_settings=ModelSettings(parallel_tool_calls=True))


def run_config(name):
    return RunConfig(workflow_name=name, group_id=f"thread_{name}")


def done(name, runs_detail, script, extra=None):
    """Writes the truth: one Runner.run per entry of runs_detail (see the README)."""
    truth = {"script": {"model_requests": script.calls, "tool_calls_requested": script.requested, **TOOLS}, "runs_detail": runs_detail}
    if extra:
        truth.update(extra)
    path = os.path.join(OUT, f"{name}.observed.json")
    prev = json.load(open(path)) if os.path.exists(path) and extra and extra.get("phase") == "resume" else None
    if prev:
        prev["resume"] = truth
        truth = prev
    with open(path, "w") as f:
        json.dump(truth, f, indent=2)
        f.write("\n")


def reset():
    for k in TOOLS:
        TOOLS[k] = 0


async def simple(name, max_turns=10):
    reset()
    script = Script(REPLIES[name])
    agent = agent_for(name, script)
    WRITER.open(os.path.join(OUT, f"{name}.jsonl"), "w")
    try:
        r = await Runner.run(agent, "Do the task.", max_turns=max_turns, run_config=run_config(name))
        outcome = {"status": "completed", "stop_reason": "goal_reached", "final_output": str(r.final_output)}
    except OutputGuardrailTripwireTriggered as e:
        outcome = {"status": "failed", "stop_reason": "guardrail", "raised": type(e).__name__}
    except MaxTurnsExceeded as e:
        outcome = {"status": "failed", "stop_reason": "max_turns", "raised": f"{type(e).__name__}: {e}"}
    except Exception as e:
        outcome = {"status": "failed", "stop_reason": "model_error", "raised": f"{type(e).__name__}: {e}"}
    done(name, [outcome], script)


async def streamed(name):
    reset()
    script = Script(REPLIES[name])
    agent = agent_for(name, script)
    WRITER.open(os.path.join(OUT, f"{name}.jsonl"), "w")
    r = Runner.run_streamed(agent, "Weather in Paris?", run_config=run_config(name))
    async for _ in r.stream_events():
        pass
    done(name, [{"status": "completed", "stop_reason": "goal_reached", "final_output": str(r.final_output)}], script)


async def aborted(name):
    reset()
    script = Script(REPLIES[name])
    agent = agent_for(name, script)
    WRITER.open(os.path.join(OUT, f"{name}.jsonl"), "w")
    GATE["started"] = asyncio.Event()
    task = asyncio.create_task(Runner.run(agent, "Run the backup.", run_config=run_config(name)))
    await GATE["started"].wait()
    task.cancel()
    try:
        await task
        outcome = {"status": "completed", "stop_reason": "goal_reached"}
    except asyncio.CancelledError:
        outcome = {"status": "cancelled", "stop_reason": "cancelled", "raised": "CancelledError"}
    done(name, [outcome], script)


async def pause(name):
    reset()
    script = Script(REPLIES[name][:1])
    agent = agent_for(name, script)
    WRITER.open(os.path.join(OUT, f"{name}.jsonl"), "w")
    r = await Runner.run(agent, "Delete /tmp/a.txt.", run_config=run_config(name))
    assert r.interruptions, "expected an interruption"
    state = r.to_state()
    with open(os.path.join(OUT, f"{name}.run_state.json"), "w") as f:
        json.dump(state.to_json(), f, indent=2)
        f.write("\n")
    WRITER.f.close()
    with open(os.path.join(OUT, f"{name}.jsonl")) as src, open(os.path.join(OUT, f"{name}_paused.jsonl"), "w") as dst:
        dst.write(src.read())  # the log as it is while the run waits (read alone: one waiting run)
    done(name, [{"status": "waiting", "stop_reason": "awaiting_approval",
                 "interruptions": [i.raw_item.call_id for i in r.interruptions]}], script, {"phase": "pause"})


async def resume(name, decision):
    reset()
    script = Script(REPLIES[name][1:])
    agent = agent_for(name, script)
    WRITER.open(os.path.join(OUT, f"{name}.jsonl"), "a")
    with open(os.path.join(OUT, f"{name}.run_state.json")) as f:
        state = await RunState.from_json(agent, json.load(f))
    for item in state.get_interruptions():
        (state.approve if decision == "approve" else state.reject)(item)
    r = await Runner.run(agent, state, run_config=run_config(name))
    assert not r.interruptions
    done(name, [{"status": "completed", "stop_reason": "goal_reached", "decision": decision,
                 "final_output": str(r.final_output)}], script, {"phase": "resume"})


# What the tool counters cannot see: the handoff's transfer_to_… call is a tool call the SDK runs
# itself (docs/model.md: the handed-off agent stays in the same run); agent.as_tool() runs a
# nested Runner.run inside the tool call: a sub-agent run (its own run and turn), plus the
# ask_weather_expert call itself.
EXTRA = {"08_handoff": {"tool_calls": 1},
         "11_agent_as_tool": {"tool_calls": 1, "subagent_runs": 1,
                              "subagent_detail": [{"status": "completed", "stop_reason": "goal_reached"}]}}


def expected(name):
    """Canonical ground truth from the observations (README: counting rules)."""
    obs = json.load(open(os.path.join(OUT, f"{name}.observed.json")))
    phases = [obs] + ([obs["resume"]] if "resume" in obs else [])
    model = sum(p["script"]["model_requests"] for p in phases)
    tools = sum(p["script"]["ok"] + p["script"]["failed"] + p["script"]["cancelled"] for p in phases)
    extra = EXTRA.get(name, {})
    tools += extra.get("tool_calls", 0)
    failed = sum(p["script"]["failed"] for p in phases)
    # a resume that executes the approved call runs it in a tool-only step before the next model call
    resumed_tool_steps = sum(1 for p in phases[1:] if p["script"]["ok"] > 0)
    last = phases[-1]["runs_detail"][0]
    truth = {"sessions": 1, "runs": 1 + extra.get("subagent_runs", 0), "turns": len(phases) + extra.get("subagent_runs", 0),
             "steps": model + resumed_tool_steps,
             "model_calls": model, "tool_calls": tools, "failed_tool_calls": failed,
             "runs_detail": [{"status": last["status"], "stop_reason": last["stop_reason"]}] + extra.get("subagent_detail", [])}
    with open(os.path.join(OUT, f"{name}.expected.json"), "w") as f:
        json.dump(truth, f, indent=2)
        f.write("\n")
    if "resume" in obs:
        p = obs["script"]
        first = obs["runs_detail"][0]
        paused = {"sessions": 1, "runs": 1, "turns": 1, "steps": p["model_requests"], "model_calls": p["model_requests"],
                  "tool_calls": p["ok"] + p["failed"] + p["cancelled"], "failed_tool_calls": p["failed"],
                  "runs_detail": [{"status": first["status"], "stop_reason": first["stop_reason"]}]}
        with open(os.path.join(OUT, f"{name}_paused.expected.json"), "w") as f:
            json.dump(paused, f, indent=2)
            f.write("\n")


def main():
    if len(sys.argv) > 1:
        cmd = sys.argv[1]
        if cmd == "pause":
            asyncio.run(pause(sys.argv[2]))
        elif cmd == "resume":
            asyncio.run(resume(sys.argv[2], sys.argv[3]))
        return
    for name in ["01_multi_step_tools", "02_tool_error", "07_model_error", "08_handoff", "09_output_guardrail", "11_agent_as_tool", "13_chat_tools"]:
        asyncio.run(simple(name))
    asyncio.run(streamed("10_streamed"))
    asyncio.run(simple("03_max_turns", max_turns=2))
    asyncio.run(aborted("06_aborted"))
    for name, decision in [("04_approval_approve", "approve"), ("05_approval_reject", "reject"),
                           ("12_chat_approval_approve", "approve")]:
        subprocess.run([sys.executable, __file__, "pause", name], check=True)
        subprocess.run([sys.executable, __file__, "resume", name, decision], check=True)
    for name in REPLIES:
        expected(name)


if __name__ == "__main__":
    main()
