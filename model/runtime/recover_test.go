package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// lifetimes runs process lifetimes on one log until one ends without a crash: the first starts
// a run of a, the next ones resume; crash decides, for each event written in lifetime n
// (0-based), whether the process dies right after it. It returns the log's events.
func lifetimes(t *testing.T, path string, a *Agent, input string, crash func(n int, ev model.Event) bool) []model.Event {
	t.Helper()
	clock, ids := NewVirtualClock(testBase), SeqIDs()
	ctx := context.Background()
	for n := 0; ; n++ {
		if n > 20 {
			t.Fatal("still crashing after 20 lifetimes")
		}
		rt, err := Open(Options{Path: path, Agents: []*Agent{a}, Clock: clock, IDs: ids, NoSync: true,
			CrashAt: func(ev model.Event) bool { return crash(n, ev) }})
		if err != nil {
			t.Fatalf("lifetime %d: open: %v", n, err)
		}
		var hs []*RunHandle
		if n == 0 {
			h, err := rt.Start(a, RunSpec{Input: input})
			if err != nil && !rt.Crashed() {
				t.Fatalf("start: %v", err)
			}
			if h != nil {
				hs = append(hs, h)
			}
		} else if hs, err = rt.Resume(); err != nil && !rt.Crashed() {
			t.Fatalf("lifetime %d: resume: %v", n, err)
		}
		for _, h := range hs {
			if _, err := h.Wait(ctx); err != nil && !rt.Crashed() {
				t.Fatalf("lifetime %d: wait: %v", n, err)
			}
		}
		crashed := rt.Crashed()
		if !crashed {
			if err := rt.EndSession(); err != nil {
				t.Fatalf("lifetime %d: %v", n, err)
			}
		}
		rt.Close()
		rt.inflight.Wait()
		if !crashed {
			return assertClean(t, path, rt)
		}
	}
}

func runOf(t *testing.T, events []model.Event) *model.Run {
	t.Helper()
	runs := project(events).Sessions[0].Runs
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	return runs[0]
}

// TestCrashAtRunQueued: the process dies right after run/queued, before the user message. The
// input is durable with the run (run/queued attrs.input): on resume the message is restored and
// the model sees it; the run completes as it would have without the crash.
func TestCrashAtRunQueued(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	outbox := NewLedger()
	events := lifetimes(t, path, sweepAgent(outbox), sweepInput, func(n int, ev model.Event) bool {
		return n == 0 && ev.Type == model.RunQueued
	})
	defer dumpOnFailure(t, path)
	if r := runOf(t, events); r.Status != model.StatusCompleted || r.StopReason != model.StopGoalReached {
		t.Errorf("run ended %s %s, want completed goal_reached (%v)", r.Status, r.StopReason, r.Error)
	}
	var inputs []model.Event
	for _, ev := range events {
		if ev.Type == model.Message && ev.Role == "user" {
			inputs = append(inputs, ev)
		}
	}
	if len(inputs) != 1 || inputs[0].Text != sweepInput || inputs[0].Attrs[attrRecovery] == nil {
		t.Errorf("user messages %+v, want the input restored once after the restart", inputs)
	}
	if _, n := outbox.MaxApplied(); n != 1 {
		t.Errorf("side effect applied %d times", n)
	}
}

// TestResumeRunWithoutInput: a log whose run/queued does not carry the input (written before the
// input was part of it) and was cut before the user message. The run cannot execute: on resume
// it fails with stop reason error and an error of kind "input", and the model is never called.
func TestResumeRunWithoutInput(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	log := `{"v":1,"seq":1,"ts":"2026-01-01T00:00:00Z","type":"session/start","session_id":"s1","source":"runtime"}
{"v":1,"seq":2,"ts":"2026-01-01T00:00:00.001Z","type":"run/queued","session_id":"s1","run_id":"r1","attempt":1,"name":"a","agent_version":"v1","source":"runtime"}
`
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	m := NewScriptedModel("m", final("answered without an input"))
	a := agent("a", m, Limits{})
	rt, err := Open(Options{Path: path, Agents: []*Agent{a}, Clock: NewVirtualClock(testBase), NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := rt.Resume()
	if err != nil || len(hs) != 1 {
		t.Fatalf("resume: %v %v", hs, err)
	}
	res, err := hs[0].Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != model.StatusFailed || res.StopReason != model.StopError || res.Error == nil || res.Error.Kind != "input" {
		t.Errorf("run without input: %s %s %+v, want failed error (kind input)", res.Status, res.StopReason, res.Error)
	}
	if m.Calls() != 0 {
		t.Errorf("the model was called %d times for a run without input", m.Calls())
	}
	if err := rt.EndSession(); err != nil {
		t.Fatal(err)
	}
	rt.Close()
	assertClean(t, path, rt)
}

// TestCrashesInsideModelCalls: the process dies inside the step's model call three times in a
// row (ModelAttempts 3), then the provider fails twice and answers the third time. A crash is
// not a provider error: the interrupted calls end cancelled with attrs.interrupted (kind crash),
// consume none of the step's attempts, and the run completes.
func TestCrashesInsideModelCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	var live atomic.Int64
	m := ModelFunc{ModelName: "m", Fn: func(ctx context.Context, req Request) (Decision, error) {
		if ctx.Err() != nil { // the call of a process that just died
			return Decision{}, ctx.Err()
		}
		if live.Add(1) <= 2 {
			return Decision{}, errors.New("503 service unavailable")
		}
		return Decision{Text: "answered"}, nil
	}}
	a := agent("a", m, Limits{ModelAttempts: 3})
	crashes := 0
	events := lifetimes(t, path, a, "hi", func(n int, ev model.Event) bool {
		if ev.Type == model.ModelStart && n < 3 {
			crashes++
			return true
		}
		return false
	})
	defer dumpOnFailure(t, path)
	if crashes != 3 {
		t.Fatalf("%d crashes, want 3", crashes)
	}
	r := runOf(t, events)
	if r.Status != model.StatusCompleted {
		t.Errorf("run ended %s %s (%v), want completed: crashes must not use up the model attempts", r.Status, r.StopReason, r.Error)
	}
	var interrupted, provider int
	for _, ev := range events {
		if ev.Type != model.ModelEnd || ev.Error == nil {
			continue
		}
		switch {
		case ev.Attrs[attrInterrupted] == true:
			interrupted++
			if ev.Outcome != model.OutcomeCancelled || ev.Error.Kind != "crash" {
				t.Errorf("interrupted model call %s: outcome %s kind %s, want cancelled crash", ev.CallID, ev.Outcome, ev.Error.Kind)
			}
		case ev.Error.Kind == "provider":
			provider++
		default:
			t.Errorf("model call %s ended %s %s", ev.CallID, ev.Outcome, ev.Error)
		}
	}
	if interrupted != 3 || provider != 2 {
		t.Errorf("%d interrupted and %d provider-failed model calls, want 3 and 2", interrupted, provider)
	}
}
