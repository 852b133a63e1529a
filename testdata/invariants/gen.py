#!/usr/bin/env python3
"""Generates the invariant fixtures: clean.jsonl (a clean canonical log) and one
L<n>_*.jsonl per invariant, each a copy of the clean log with exactly that invariant
violated. Run from this directory: python3 gen.py"""
import copy, json, datetime

T0 = datetime.datetime(2026, 11, 29, 8, 0, 0, tzinfo=datetime.timezone.utc)

def ts(ms):
    return (T0 + datetime.timedelta(milliseconds=ms)).strftime("%Y-%m-%dT%H:%M:%S.%f000Z")

S, R, T = "sess-1", "run-1", "turn-1"

def ev(ms, typ, **kw):
    e = {"v": 1, "seq": 0, "ts": ts(ms), "type": typ, "session_id": S}
    if typ not in ("session/start", "session/end", "message", "snapshot") and not typ.startswith("connection/"):
        e["run_id"] = R
    e.update(kw)
    e.setdefault("source", "runtime")
    return e

def base():
    return [
        ev(0, "session/start"),
        ev(10, "run/queued", attempt=1, name="helper", agent_version="v3"),
        ev(20, "run/start", attempt=1, name="helper", agent_version="v3"),
        ev(30, "turn/start", turn_id=T),
        ev(40, "step/start", turn_id=T, step_id="step-1"),
        ev(50, "model/start", turn_id=T, step_id="step-1", call_id="model-1", name="scripted"),
        ev(300, "model/end", turn_id=T, step_id="step-1", call_id="model-1", outcome="ok",
           usage={"input_tokens": 120, "output_tokens": 30}, attrs={"tool_calls": 2}),
        ev(310, "tool/start", turn_id=T, step_id="step-1", call_id="call-a", name="search", attrs={"args": {"q": "weather"}}),
        ev(311, "tool/start", turn_id=T, step_id="step-1", call_id="call-b", name="fetch", attrs={"args": {"url": "https://example.org"}}),
        ev(400, "tool/end", turn_id=T, step_id="step-1", call_id="call-b", outcome="ok", attrs={"result": "page"}),
        ev(450, "tool/end", turn_id=T, step_id="step-1", call_id="call-a", outcome="ok", attrs={"result": "sunny"}),
        ev(460, "step/end", turn_id=T, step_id="step-1", outcome="ok"),
        ev(470, "step/start", turn_id=T, step_id="step-2"),
        ev(480, "model/start", turn_id=T, step_id="step-2", call_id="model-2", name="scripted"),
        ev(700, "model/end", turn_id=T, step_id="step-2", call_id="model-2", outcome="ok",
           usage={"input_tokens": 200, "output_tokens": 40}),
        ev(710, "step/end", turn_id=T, step_id="step-2", outcome="ok"),
        ev(720, "turn/stopping", turn_id=T),
        ev(730, "turn/end", turn_id=T, outcome="ok", stop_reason="goal_reached"),
        ev(740, "run/end", status="completed", stop_reason="goal_reached"),
    ]

def find(log, typ, **kw):
    for i, e in enumerate(log):
        if e["type"] == typ and all(e.get(k) == v for k, v in kw.items()):
            return i
    raise KeyError((typ, kw))

def write(name, log):
    with open(name, "w") as f:
        for i, e in enumerate(log, 1):
            e = dict(e)
            e["seq"] = i
            f.write(json.dumps(e, separators=(",", ":")) + "\n")

write("clean.jsonl", base())

# L1: a tool/end for a call that was never started.
log = base()
log.insert(find(log, "step/end", step_id="step-1"), ev(455, "tool/end", turn_id=T, step_id="step-1", call_id="call-zz", outcome="ok"))
write("L1_orphan_id.jsonl", log)

# L2: a tool call that starts before its step does.
log = base()
log[find(log, "tool/start", call_id="call-a")]["ts"] = ts(20)
write("L2_child_outside_parent.jsonl", log)

# L3: a tool call that never ends although its step and run did.
log = base()
del log[find(log, "tool/end", call_id="call-a")]
write("L3_start_without_end.jsonl", log)

# L4: running → queued is not a legal transition.
log = base()
log.insert(find(log, "turn/start"), ev(25, "run/status", status="queued"))
write("L4_illegal_transition.jsonl", log)

# L5: completed although the last step failed.
log = base()
log[find(log, "step/end", step_id="step-2")]["outcome"] = "error"
log[find(log, "step/end", step_id="step-2")]["error"] = {"kind": "model", "message": "malformed tool call"}
write("L5_completed_after_failed_step.jsonl", log)

# L6: failed with goal_reached.
log = base()
log[find(log, "run/end")]["status"] = "failed"
write("L6_inconsistent_stop_reason.jsonl", log)

# L7: a recorded timeout replaced by the lower-priority max_steps.
log = base()
log.insert(find(log, "turn/stopping"), ev(715, "run/status", status="running", stop_reason="timeout", cause="timeout"))
log[find(log, "turn/end")]["stop_reason"] = "max_steps"
log[find(log, "run/end")].update(status="failed", stop_reason="max_steps")
write("L7_stop_reason_downgrade.jsonl", log)

# L8: the run's final status written by a tool.
log = base()
log[find(log, "run/end")]["source"] = "tool"
write("L8_status_not_by_runtime.jsonl", log)

# L9: attempt 2 without parent_run_id.
log = base()
for i in (find(log, "run/queued"), find(log, "run/start")):
    log[i].update(attempt=2, kind="retry")
write("L9_retry_without_parent.jsonl", log)

# L10: step-2 starts before step-1 ended.
log = base()
i = find(log, "step/start", step_id="step-2")
st = log.pop(i)
st["ts"] = ts(455)
log.insert(find(log, "step/end", step_id="step-1"), st)
write("L10_overlapping_steps.jsonl", log)

# L11: a steer arrives mid-turn and the turn ends without consuming it.
log = base()
log.insert(find(log, "step/start", step_id="step-2"), ev(465, "input/steer", input_id="steer-1", role="user", text="also check tomorrow", source="client"))
write("L11_unconsumed_steer.jsonl", log)

# L12: the run is cancelled because its connection closed.
log = base()
log.insert(find(log, "run/start") + 1, ev(21, "connection/open", connection_id="conn-1", run_id=R, source="client"))
i = find(log, "step/start", step_id="step-2")
log[i:] = [
    ev(465, "connection/close", connection_id="conn-1", run_id=R, source="client"),
    ev(466, "turn/end", turn_id=T, outcome="cancelled", stop_reason="cancelled"),
    ev(467, "run/end", status="cancelled", stop_reason="cancelled", cause="connection/close"),
]
write("L12_connection_close_cancels_run.jsonl", log)

# L13: after a crash and resume, the side effect with the same idempotency key runs again.
log = base()
i = find(log, "tool/start", call_id="call-a")
log[i].update(side_effect=True, idempotency_key="charge-42", name="charge_card")
j = find(log, "tool/end", call_id="call-a")
log[j].update(outcome="unknown", error={"kind": "crash", "message": "process restarted before the result was recorded"})
log.insert(j, ev(420, "run/resumed", attrs={"reason": "process_restart"}))
k = find(log, "step/end", step_id="step-1")
log.insert(k, ev(452, "tool/start", turn_id=T, step_id="step-1", call_id="call-a-retry", name="charge_card", side_effect=True, idempotency_key="charge-42"))
log.insert(k + 1, ev(454, "tool/end", turn_id=T, step_id="step-1", call_id="call-a-retry", outcome="ok"))
write("L13_side_effect_twice_after_resume.jsonl", log)

# L1: a run that names itself as its parent.
log = base()
for i in (find(log, "run/queued"), find(log, "run/start")):
    log[i]["parent_run_id"] = R
write("L1_self_parent.jsonl", log)

# L1: a parent cycle: run-1 names run-2 as its parent (before run-2 is in the log: no finding
# yet), then run-2 starts naming run-1. Reported once, as a cycle, at the run that closes it.
log = base()
for i in (find(log, "run/queued"), find(log, "run/start")):
    log[i]["parent_run_id"] = "run-2"
log += [
    ev(750, "run/start", run_id="run-2", attempt=1, kind="subagent", parent_run_id=R),
    ev(760, "run/end", run_id="run-2", status="completed", stop_reason="goal_reached"),
]
write("L1_parent_cycle.jsonl", log)

# C1: a clock gone wrong: the run ends in the year 2400, 374 years after it started (more than
# a time.Duration holds). Reported once per session.
log = base()
log[find(log, "run/end")]["ts"] = "2400-01-01T00:00:00.000000000Z"
write("C1_absurd_clock.jsonl", log)

# C1: a tool call that ends 6 ms before it starts (beyond the 5 ms skew tolerance).
log = base()
log[find(log, "tool/end", call_id="call-b")]["ts"] = ts(305)
write("C1_end_before_start.jsonl", log)
