"""Generate LangGraph (Python) fixtures offline: three views of one execution per scenario.

The real langgraph prebuilt ReAct agent (create_react_agent + ToolNode), and langchain 1.x's
create_agent (with HumanInTheLoopMiddleware for approvals), run over a scripted chat
model (a langchain_core GenericFakeChatModel whose bind_tools keeps the script). Every invocation
runs with astream_events(version="v2") and two callback handlers, so the three views are of the
same execution:
  <name>.stream_events_v2.jsonl   every astream_events v2 event, json.dumps with pydantic objects
                                  dumped by model_dump() (as langgraph's JSON serializers do)
  <name>.run_tree.json            the root runs a BaseTracer persists (_persist_run), each run as
                                  Run.dict() serializes it (json.dumps(default=str)) with its
                                  child_runs put back (RunTree excludes them from dict())
  <name>.langsmith_payloads.jsonl the JSON request bodies LangChainTracer's langsmith Client sends
                                  (auto_batch_tracing=False: POST /runs on start, PATCH /runs/<id> on
                                  end), captured by the requests.Session it is given (no server is
                                  reached), one body per line in the order sent
Interrupt scenarios invoke again on the same thread (MemorySaver checkpointer) with
Command(resume=...) or None. Ground truth (<name>.expected.json) is what this script observed.
"""
import asyncio
import json
import os
import sys
import uuid

import requests
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langchain_core.tools import tool
from langchain_core.tracers.base import BaseTracer
from langchain_core.tracers.langchain import LangChainTracer
from langgraph.checkpoint.memory import MemorySaver
from langgraph.errors import GraphRecursionError
from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langgraph.prebuilt import ToolNode, create_react_agent
from langgraph.types import Command, interrupt
from langsmith import Client

OUT = os.path.dirname(os.path.abspath(__file__))


class ScriptedChat(GenericFakeChatModel):
    """GenericFakeChatModel that accepts bind_tools (the script already holds the tool calls)."""

    calls: int = 0

    def bind_tools(self, tools, **kwargs):
        return self

    def _generate(self, *args, **kwargs):
        object.__setattr__(self, "calls", self.calls + 1)
        return super()._generate(*args, **kwargs)


class Persist(BaseTracer):
    """Keeps the root runs the tracer persists (with nested child_runs)."""

    def __init__(self):
        super().__init__()
        self.roots = []

    def _persist_run(self, run):
        self.roots.append(tree(run))


def tree(run):
    """Run.dict() of each run (RunTree's child_runs field is exclude=True, so dict()/json() drop
    the children: they are put back under "child_runs", recursively)."""
    d = json.loads(json.dumps(run.dict(), default=str))
    d["child_runs"] = [tree(c) for c in run.child_runs]
    return d  # Run.dict(): pydantic v1 style, what the tracers use


class Capture(requests.Session):
    """The langsmith Client's requests.Session: records each prepared request, answers 200."""

    def __init__(self, sink):
        super().__init__()
        self.sink = sink

    def send(self, request, **kwargs):
        body = request.body
        if isinstance(body, bytes):
            body = body.decode("utf-8", "replace")
        ctype = request.headers.get("Content-Type", "")
        rec = {"method": request.method, "path": requests.utils.urlparse(request.url).path, "content_type": ctype}
        try:
            rec["body"] = json.loads(body) if body else None
        except ValueError:
            rec["body_text"] = body
        self.sink.append(rec)
        resp = requests.Response()
        resp.status_code = 200
        resp._content = b"{}"
        resp.headers["Content-Type"] = "application/json"
        resp.request = request
        resp.url = request.url
        return resp


def ai(*calls, text=""):
    return AIMessage(content=text, tool_calls=[{"id": cid, "name": n, "args": a, "type": "tool_call"} for cid, n, a in calls])


COUNT = {"tool": 0, "tool_failed": 0, "tool_cancelled": 0, "interrupted": 0}
GATE = {}


@tool
def get_weather(city: str) -> str:
    """Get the weather of a city."""
    COUNT["tool"] += 1
    return f"sunny in {city}"


@tool
def get_time(city: str) -> str:
    """Get the local time of a city."""
    COUNT["tool"] += 1
    return f"12:00 in {city}"


@tool
def flaky_lookup(key: str) -> str:
    """Look a key up in a flaky store."""
    COUNT["tool"] += 1
    COUNT["tool_failed"] += 1
    raise RuntimeError(f"store unavailable for {key}")


@tool
def delete_file(path: str) -> str:
    """Delete a file after a human approves (interrupt inside the tool)."""
    COUNT["tool"] += 1
    decision = interrupt({"action": "delete_file", "path": path})
    COUNT["interrupted"] += 0  # reached only on resume
    if decision == "approve":
        return f"deleted {path}"
    return f"not deleted: the user rejected ({decision})"


@tool
def remove_file(path: str) -> str:
    """Delete a file (gated by HumanInTheLoopMiddleware)."""
    COUNT["tool"] += 1
    return f"deleted {path}"


@tool
async def long_job(name: str) -> str:
    """A long job; the caller cancels the run while it runs."""
    COUNT["tool"] += 1
    GATE["started"].set()
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        COUNT["tool_cancelled"] += 1
        raise
    return "never"


def dumps(ev):
    def default(o):
        if hasattr(o, "model_dump"):
            return o.model_dump()
        return str(o)
    return json.dumps(ev, default=default)


SCENARIOS = {
    "01_multi_step_tools": dict(tools=[get_weather, get_time], script=[
        ai(("call_1", "get_weather", {"city": "Paris"}), ("call_2", "get_time", {"city": "Paris"})),
        ai(("call_3", "get_weather", {"city": "Rome"})),
        ai(text="Paris: sunny 12:00; Rome: sunny.")],
        invocations=[("Weather and time in Paris, then Rome?", {})]),
    "02_tool_error": dict(tools=[flaky_lookup, get_weather], handle_tool_errors=True, script=[
        ai(("call_1", "flaky_lookup", {"key": "a"})),
        ai(("call_2", "get_weather", {"city": "Oslo"})),
        ai(text="The store is down; Oslo is sunny.")],
        invocations=[("Look up a, then Oslo weather", {})]),
    "03_recursion_limit": dict(tools=[get_weather], script=[
        ai(("call_%d" % i, "get_weather", {"city": "Paris"})) for i in range(1, 10)],
        invocations=[("Weather forever", {"recursion_limit": 4})]),
    "04_interrupt_approve": dict(tools=[delete_file], checkpointer=True, script=[
        ai(("call_1", "delete_file", {"path": "/tmp/a.txt"})),
        ai(text="Deleted /tmp/a.txt.")],
        invocations=[("Delete /tmp/a.txt", {}), (Command(resume="approve"), {})]),
    "05_interrupt_reject": dict(tools=[delete_file], checkpointer=True, script=[
        ai(("call_1", "delete_file", {"path": "/tmp/a.txt"})),
        ai(text="I did not delete it.")],
        invocations=[("Delete /tmp/a.txt", {}), (Command(resume="reject"), {})]),
    "06_breakpoint_before_tools": dict(tools=[get_weather], checkpointer=True, interrupt_before=["tools"], script=[
        ai(("call_1", "get_weather", {"city": "Paris"})),
        ai(text="Paris is sunny.")],
        invocations=[("Weather in Paris?", {}), (None, {})]),
    "07_aborted": dict(tools=[long_job], script=[
        ai(("call_1", "long_job", {"name": "backup"})), ai(text="never")],
        invocations=[("Run the backup", {"abort": True})]),
    "09_tool_error_raised": dict(tools=[flaky_lookup], script=[
        ai(("call_1", "flaky_lookup", {"key": "a"})), ai(text="never")],
        invocations=[("Look up a", {})]),
    "10_create_agent_tools": dict(tools=[get_weather, get_time], create_agent=True, script=[
        ai(("call_1", "get_weather", {"city": "Paris"}), ("call_2", "get_time", {"city": "Paris"})),
        ai(text="Paris: sunny, 12:00.")],
        invocations=[("Weather and time in Paris?", {})]),
    "11_hitl_approve": dict(tools=[remove_file], create_agent=True, checkpointer=True, hitl=True, script=[
        ai(("call_1", "remove_file", {"path": "/tmp/a.txt"})), ai(text="Deleted /tmp/a.txt.")],
        invocations=[("Delete /tmp/a.txt", {}), (Command(resume={"decisions": [{"type": "approve"}]}), {})]),
    "12_hitl_reject": dict(tools=[remove_file], create_agent=True, checkpointer=True, hitl=True, script=[
        ai(("call_1", "remove_file", {"path": "/tmp/a.txt"})), ai(text="I kept the file.")],
        invocations=[("Delete /tmp/a.txt", {}),
                     (Command(resume={"decisions": [{"type": "reject", "message": "Keep it."}]}), {})]),
    "08_two_runs_same_thread": dict(tools=[get_weather], checkpointer=True, script=[
        ai(("call_1", "get_weather", {"city": "Paris"})), ai(text="Paris is sunny."),
        ai(("call_2", "get_weather", {"city": "Rome"})), ai(text="Rome is sunny.")],
        invocations=[("Weather in Paris?", {}), ("And Rome?", {})]),
}


async def scenario(name, spec):
    for k in COUNT:
        COUNT[k] = 0
    model = ScriptedChat(messages=iter(spec["script"]), disable_streaming=True)
    tools = ToolNode(spec["tools"], handle_tool_errors=True) if spec.get("handle_tool_errors") else spec["tools"]
    saver = MemorySaver() if spec.get("checkpointer") else None
    if spec.get("create_agent"):  # langchain 1.x create_agent (middleware: human-in-the-loop)
        mw = [HumanInTheLoopMiddleware(interrupt_on={t.name: True for t in spec["tools"]})] if spec.get("hitl") else []
        graph = create_agent(model, tools, middleware=mw, checkpointer=saver)
    else:
        graph = create_react_agent(model, tools, checkpointer=saver, interrupt_before=spec.get("interrupt_before"))
    persist = Persist()
    sink = []
    session = Capture(sink)
    client = Client(api_url="http://langsmith.invalid", api_key="offline", session=session, auto_batch_tracing=False)
    lstracer = LangChainTracer(client=client, project_name=name)
    thread = f"thread-{uuid.uuid4()}"
    events, runs = [], []
    for inp, opts in spec["invocations"]:
        before = (model.calls, COUNT["tool"], COUNT["tool_failed"], COUNT["tool_cancelled"])
        config = {"configurable": {"thread_id": thread}, "callbacks": [persist, lstracer]}
        if "recursion_limit" in opts:
            config["recursion_limit"] = opts["recursion_limit"]
        if isinstance(inp, str):
            inp = {"messages": [("user", inp)]}
        outcome = {}
        interrupted = False
        final = None

        async def consume():
            nonlocal interrupted
            nonlocal final
            async for ev in graph.astream_events(inp, config, version="v2"):
                events.append(dumps(ev))
                if ev["event"] == "on_chain_end" and not ev.get("parent_ids"):
                    final = ev["data"].get("output")
                out = (ev.get("data") or {}).get("chunk")
                if ev["event"] == "on_chain_stream" and isinstance(out, dict) and "__interrupt__" in out:
                    interrupted = True

        try:
            if opts.get("abort"):
                GATE["started"] = asyncio.Event()
                task = asyncio.create_task(consume())
                await GATE["started"].wait()
                task.cancel()
                await task
            else:
                await consume()
            if spec.get("checkpointer"):
                st = graph.get_state({"configurable": {"thread_id": thread}})
                interrupted = interrupted or bool(st.next)
            outcome = {"status": "waiting", "stop_reason": "awaiting_approval"} if interrupted else \
                {"status": "completed", "stop_reason": "goal_reached"}
        except asyncio.CancelledError:
            outcome = {"status": "cancelled", "stop_reason": "cancelled", "raised": "CancelledError"}
        except RuntimeError as e:
            outcome = {"status": "failed", "stop_reason": "tool_error", "raised": f"RuntimeError: {e}"}
        except GraphRecursionError as e:
            outcome = {"status": "failed", "stop_reason": "max_steps", "raised": f"GraphRecursionError: {str(e)[:80]}"}
        if outcome.get("status") == "completed":
            last = graph.get_state(config).values["messages"][-1] if spec.get("checkpointer") else None
            if last is None and final is not None:
                last = final["messages"][-1]
            if last is not None and last.content == "Sorry, need more steps to process this request.":
                # create_react_agent's remaining_steps guard: the recursion limit stopped the loop
                outcome = {"status": "failed", "stop_reason": "max_steps", "final_message": last.content}
        after = (model.calls, COUNT["tool"], COUNT["tool_failed"], COUNT["tool_cancelled"])
        d = [a - b for a, b in zip(after, before)]
        outcome.update({"model_calls": d[0], "tool_calls": d[1], "failed_tool_calls": d[2], "cancelled_tool_calls": d[3]})
        runs.append(outcome)
    client.flush() if hasattr(client, "flush") else None
    lstracer.wait_for_futures()
    with open(os.path.join(OUT, f"{name}.stream_events_v2.jsonl"), "w") as f:
        f.write("\n".join(events) + "\n")
    with open(os.path.join(OUT, f"{name}.run_tree.json"), "w") as f:
        json.dump(persist.roots, f, indent=1)
        f.write("\n")
    with open(os.path.join(OUT, f"{name}.langsmith_payloads.jsonl"), "w") as f:
        for rec in sink:  # POST /runs (create) and PATCH /runs/<id> (update) bodies, in order sent
            assert rec["method"] in ("POST", "PATCH") and rec["path"].startswith("/runs"), rec
            f.write(json.dumps(rec["body"]) + "\n")
    with open(os.path.join(OUT, f"{name}.observed.json"), "w") as f:
        json.dump({"thread_id": thread, "invocations": runs}, f, indent=2)
        f.write("\n")
    expected(name, runs, resumes=[inp is None or isinstance(inp, Command) for inp, _ in spec["invocations"]])
    print(name, json.dumps(runs), file=sys.stderr)


def expected(name, runs, resumes):
    """Canonical ground truth from the observations (README: counting rules): one run per
    invocation (a resume is its own root run: kind resume), one turn each; a step per model call,
    plus a tool-only step when a resumed invocation runs the pending tool before calling the model."""
    steps = sum(r["model_calls"] + (1 if resumed and r["tool_calls"] else 0) for r, resumed in zip(runs, resumes))
    truth = {"sessions": 1, "runs": len(runs), "turns": len(runs), "steps": steps,
             "model_calls": sum(r["model_calls"] for r in runs), "tool_calls": sum(r["tool_calls"] for r in runs),
             "failed_tool_calls": sum(r["failed_tool_calls"] for r in runs),
             "runs_detail": [{"status": r["status"], "stop_reason": r["stop_reason"]} for r in runs]}
    with open(os.path.join(OUT, f"{name}.expected.json"), "w") as f:
        json.dump(truth, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    for name, spec in SCENARIOS.items():
        if len(sys.argv) > 1 and name not in sys.argv[1:]:
            continue
        asyncio.run(scenario(name, spec))
