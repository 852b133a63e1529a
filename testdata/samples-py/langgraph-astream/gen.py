"""Generate LangGraph (Python) `astream` fixtures offline, and the LangSmith multipart bodies of
the same executions, with resumes in a new process from a SQLite checkpointer.

The graphs, tools, scripted model and scenarios are those of ../langgraph/gen.py (imported).
Every invocation is consumed with
    graph.astream(input, config, stream_mode=["updates", "values", "messages", "debug"])
which yields (mode, chunk) pairs, with two callback handlers attached:
  <name>.astream.jsonl           every (mode, chunk) pair as yielded, one JSON array per line
  <name>.astream_v2.jsonl        a second execution of the scenario consumed with version="v2" and
                                 modes updates, values, messages, tasks, checkpoints: every typed
                                 stream part {"type", "ns", "data", …} as yielded (its observations
                                 are asserted equal to the first execution's)
  <name>.astream_<mode>.jsonl    the chunks of one mode alone, one per line: what
                                 astream(..., stream_mode="<mode>") yields (a message chunk of
                                 "messages" mode is the pair [message, metadata])
  <name>.langsmith_multipart     the request bodies langsmith's Client (auto batching, the
                                 default) POSTs to /runs/multipart, as sent, one after the other:
                                 multipart/form-data with parts post.<id>, post.<id>.inputs,
                                 .outputs, .events, .extra, patch.<id>, …; the Client is pointed at a
                                 capture server on 127.0.0.1 that answers GET /info with {} and
                                 every POST with 200
  <name>.run_tree.json           the root runs a BaseTracer persists (as ../langgraph)
Objects are serialized as LangGraph's JSON serializers do: pydantic models by model_dump(),
dataclasses (Interrupt, StateSnapshot parts) as their fields, other objects by str().

Checkpointer scenarios use AsyncSqliteSaver on a database file: process 1 runs the first
invocation; process 2 (`python gen.py resume <name> <db> <replies used>`) opens the same file,
runs the later invocations (Command(resume=…), None, or a new message) on the same thread and
appends to the files. <name>.expected.json is computed from what the two processes observed
(model requests answered, tool bodies entered/raised/cancelled, get_state().next, what astream
raised), with ../langgraph's counting rules; <name>.observed.json keeps the observations.
"""
import asyncio
import dataclasses
import http.server
import json
import os
import subprocess
import sys
import tempfile
import threading
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "langgraph"))

import gen as base  # noqa: E402  (../langgraph/gen.py: tools, scripted model, scenarios)
from langchain_core.tracers.langchain import LangChainTracer  # noqa: E402
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver  # noqa: E402
from langgraph.errors import GraphRecursionError  # noqa: E402
from langgraph.types import Command  # noqa: E402
from langchain.agents import create_agent  # noqa: E402
from langchain.agents.middleware import HumanInTheLoopMiddleware  # noqa: E402
from langgraph.prebuilt import ToolNode, create_react_agent  # noqa: E402
from langsmith import Client  # noqa: E402

MODES = ["updates", "values", "messages", "debug"]
NAMES = ["01_multi_step_tools", "02_tool_error", "03_recursion_limit", "04_interrupt_approve", "05_interrupt_reject",
         "06_breakpoint_before_tools", "07_aborted", "08_two_runs_same_thread", "09_tool_error_raised",
         "11_hitl_approve", "12_hitl_reject"]


def to_json(o):
    if hasattr(o, "model_dump"):
        return o.model_dump()
    if dataclasses.is_dataclass(o) and not isinstance(o, type):
        return {f.name: getattr(o, f.name) for f in dataclasses.fields(o)}
    if isinstance(o, (set, frozenset)):
        return list(o)
    return str(o)


def dumps(x):
    return json.dumps(x, default=to_json)


class Capture:
    """A local HTTP server standing in for LangSmith: keeps every POST /runs/multipart body."""

    def __init__(self):
        self.bodies = []
        sink = self.bodies

        class H(http.server.BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def reply(self):
                b = b"{}"
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(b)))
                self.end_headers()
                self.wfile.write(b)

            def do_GET(self):
                self.reply()

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(n)
                assert self.path.startswith("/runs/multipart"), self.path
                assert not self.headers.get("Content-Encoding"), self.headers.get("Content-Encoding")
                sink.append(body)
                self.reply()

        self.srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H)
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.srv.server_address[1]}"


def build(spec, model, saver):
    tools = ToolNode(spec["tools"], handle_tool_errors=True) if spec.get("handle_tool_errors") else spec["tools"]
    if spec.get("create_agent"):
        mw = [HumanInTheLoopMiddleware(interrupt_on={t.name: True for t in spec["tools"]})] if spec.get("hitl") else []
        return create_agent(model, tools, middleware=mw, checkpointer=saver)
    return create_react_agent(model, tools, checkpointer=saver, interrupt_before=spec.get("interrupt_before"))


V2_MODES = ["updates", "values", "messages", "tasks", "checkpoints"]


async def invoke(name, graph, model, inp, opts, thread, append, v2=False):
    """One invocation: astream with every mode and both tracers; appends the views; returns the
    observation."""
    persist = base.Persist()
    cap = Capture()
    client = Client(api_url=cap.url, api_key="offline")
    tracer = LangChainTracer(client=client, project_name=name)
    config = {"configurable": {"thread_id": thread}, "callbacks": [persist, tracer]}
    if "recursion_limit" in opts:
        config["recursion_limit"] = opts["recursion_limit"]
    if isinstance(inp, str):
        inp = {"messages": [("user", inp)]}
    pairs = []
    state = {"interrupted": False, "final": None}
    before = (model.calls, base.COUNT["tool"], base.COUNT["tool_failed"], base.COUNT["tool_cancelled"])

    async def consume():
        if v2:  # typed stream parts: {"type": mode, "ns": […], "data": chunk, …}
            async for part in graph.astream(inp, config, stream_mode=V2_MODES, version="v2"):
                pairs.append((None, part))
                mode, chunk = part["type"], part["data"]
                if mode == "updates" and isinstance(chunk, dict) and "__interrupt__" in chunk:
                    state["interrupted"] = True
                if mode == "values":
                    state["final"] = chunk
            return
        async for mode, chunk in graph.astream(inp, config, stream_mode=MODES):
            pairs.append((mode, chunk))
            if mode == "updates" and isinstance(chunk, dict) and "__interrupt__" in chunk:
                state["interrupted"] = True
            if mode == "values":
                state["final"] = chunk

    outcome = {}
    try:
        if opts.get("abort"):
            base.GATE["started"] = asyncio.Event()
            task = asyncio.create_task(consume())
            await base.GATE["started"].wait()
            task.cancel()
            await task
        else:
            await consume()
        if graph.checkpointer is not None:
            st = await graph.aget_state({"configurable": {"thread_id": thread}})
            state["interrupted"] = state["interrupted"] or bool(st.next)
        outcome = {"status": "waiting", "stop_reason": "awaiting_approval"} if state["interrupted"] else \
            {"status": "completed", "stop_reason": "goal_reached"}
    except asyncio.CancelledError:
        outcome = {"status": "cancelled", "stop_reason": "cancelled", "raised": "CancelledError"}
    except RuntimeError as e:
        outcome = {"status": "failed", "stop_reason": "tool_error", "raised": f"RuntimeError: {e}"}
    except GraphRecursionError as e:
        outcome = {"status": "failed", "stop_reason": "max_steps", "raised": f"GraphRecursionError: {str(e)[:80]}"}
    if outcome.get("status") == "completed":
        final = state["final"] or {}
        msgs = final.get("messages") or []
        if msgs and getattr(msgs[-1], "content", None) == "Sorry, need more steps to process this request.":
            # create_react_agent's remaining_steps guard: the recursion limit stopped the loop
            outcome = {"status": "failed", "stop_reason": "max_steps", "final_message": msgs[-1].content}
    after = (model.calls, base.COUNT["tool"], base.COUNT["tool_failed"], base.COUNT["tool_cancelled"])
    d = [a - b for a, b in zip(after, before)]
    outcome.update({"model_calls": d[0], "tool_calls": d[1], "failed_tool_calls": d[2], "cancelled_tool_calls": d[3]})
    tracer.wait_for_futures()
    client.flush()
    cap.srv.shutdown()
    mode = "a" if append else "w"
    if v2:
        with open(os.path.join(HERE, f"{name}.astream_v2.jsonl"), mode) as f:
            for _, part in pairs:
                f.write(dumps(part) + "\n")
        return outcome
    with open(os.path.join(HERE, f"{name}.astream.jsonl"), mode) as f:
        for m, c in pairs:
            f.write(dumps([m, c]) + "\n")
    for m in MODES:
        with open(os.path.join(HERE, f"{name}.astream_{m}.jsonl"), mode) as f:
            for mm, c in pairs:
                if mm == m:
                    f.write(dumps(c) + "\n")
    with open(os.path.join(HERE, f"{name}.langsmith_multipart"), "ab" if append else "wb") as f:
        for b in cap.bodies:
            f.write(b)
    path = os.path.join(HERE, f"{name}.run_tree.json")
    roots = json.load(open(path)) if append else []
    with open(path, "w") as f:
        json.dump(roots + persist.roots, f, indent=1)
        f.write("\n")
    return outcome


async def process(name, db, first, used, v2=False):
    """Runs the invocations [first:] of a scenario (process 1: first=0, only the first one when
    the scenario has a checkpointer; process 2: the rest) and returns their observations."""
    spec = base.SCENARIOS[name]
    for k in base.COUNT:
        base.COUNT[k] = 0
    model = base.ScriptedChat(messages=iter(spec["script"][used:]), disable_streaming=True)
    invs = spec["invocations"][first:first + 1] if first == 0 and spec.get("checkpointer") else spec["invocations"][first:]
    out = []
    if spec.get("checkpointer"):
        async with AsyncSqliteSaver.from_conn_string(db) as saver:
            graph = build(spec, model, saver)
            for inp, opts in invs:
                out.append(await invoke(name, graph, model, inp, opts, "thread-" + name, first > 0 or bool(out), v2))
    else:
        graph = build(spec, model, None)
        for inp, opts in invs:
            out.append(await invoke(name, graph, model, inp, opts, "thread-" + name, bool(out), v2))
    return out, model.calls


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "resume":
        name, db, used = sys.argv[2], sys.argv[3], int(sys.argv[4])
        out, _ = asyncio.run(process(name, db, 1, used, len(sys.argv) > 5 and sys.argv[5] == "v2"))
        print(json.dumps(out))
        return
    names = [n for n in NAMES if len(sys.argv) == 1 or n in sys.argv[1:]]
    for name in names:
        spec = base.SCENARIOS[name]
        db = os.path.join(tempfile.mkdtemp(), "checkpoints.sqlite")
        runs, used = asyncio.run(process(name, db, 0, 0))
        if spec.get("checkpointer") and len(spec["invocations"]) > 1:
            p = subprocess.run([sys.executable, "-W", "ignore", __file__, "resume", name, db, str(used)],
                               check=True, capture_output=True, text=True)
            runs += json.loads(p.stdout.strip().splitlines()[-1])
        # the same scenario again, consumed as typed stream parts (version="v2"), in two
        # processes as well: its observations must be the same as the first execution's
        db2 = os.path.join(tempfile.mkdtemp(), "checkpoints.sqlite")
        runs2, used2 = asyncio.run(process(name, db2, 0, 0, True))
        if spec.get("checkpointer") and len(spec["invocations"]) > 1:
            p = subprocess.run([sys.executable, "-W", "ignore", __file__, "resume", name, db2, str(used2), "v2"],
                               check=True, capture_output=True, text=True)
            runs2 += json.loads(p.stdout.strip().splitlines()[-1])
        strip = lambda rs: [{k: v for k, v in r.items() if k not in ("raised", "final_message")} for r in rs]
        assert strip(runs2) == strip(runs), (name, runs, runs2)
        resumes = [inp is None or isinstance(inp, Command) for inp, _ in spec["invocations"]]
        with open(os.path.join(HERE, f"{name}.observed.json"), "w") as f:
            json.dump({"thread_id": "thread-" + name, "processes": 2 if spec.get("checkpointer") and len(runs) > 1 else 1,
                       "invocations": runs}, f, indent=2)
            f.write("\n")
        base.OUT = HERE
        base.expected(name, runs, resumes)
        print(name, json.dumps(runs), file=sys.stderr)


if __name__ == "__main__":
    main()
