package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// sweepInput is the input of the sweep agent's run.
const sweepInput = "notify ops"

// sweepAgent is a three-step agent whose model decides from the context alone (so that a call
// repeated after a crash decides the same): step 1 sends an email (side effect, probe) and looks
// something up in parallel, step 2 takes a note, step 3 answers. A context that does not start
// with the run's input fails the call permanently (a run must never execute without its input).
func sweepAgent(outbox *Ledger) *Agent {
	m := ModelFunc{ModelName: "ctx-model", Fn: func(ctx context.Context, req Request) (Decision, error) {
		if err := Sleep(ctx, time.Millisecond); err != nil {
			return Decision{}, err
		}
		if len(req.Messages) == 0 || req.Messages[0].Role != "user" || req.Messages[0].Text != sweepInput {
			return Decision{}, Permanent(fmt.Errorf("the context does not start with the run's input: %+v", req.Messages))
		}
		n := 0
		for _, msg := range req.Messages {
			if msg.Role == "assistant" {
				n++
			}
		}
		u := model.Usage{InputTokens: 100, OutputTokens: 10}
		switch n {
		case 0:
			return Decision{ToolCalls: []ToolCall{{Name: "email", Args: map[string]any{"to": "ops"}}, {Name: "lookup"}}, Usage: u}, nil
		case 1:
			return Decision{Text: "noting", ToolCalls: []ToolCall{{Name: "note"}}, Usage: u}, nil
		}
		return Decision{Text: "done", Usage: u}, nil
	}}
	email := &FuncTool{ToolName: "email", Effect: true,
		Fn: func(ctx context.Context, call Call) (string, error) {
			if err := Sleep(ctx, time.Millisecond); err != nil {
				return "", err
			}
			res := outbox.Do(call.IdempotencyKey, "sent")
			return res, Sleep(ctx, time.Millisecond)
		},
		ProbeFn: func(ctx context.Context, call Call) (string, bool, error) {
			r, ok := outbox.Done(call.IdempotencyKey)
			return r, ok, nil
		}}
	return &Agent{Name: "sweeper", Version: "v1", Model: m,
		Tools: []Tool{email, pure("lookup", 2*time.Millisecond, "found"), pure("note", 0, "noted")}}
}

// lifetime runs one process lifetime on path: it starts a run (first lifetime) or resumes the
// live ones, and crashes after the crashAt-th event it writes (0: never). It reports whether
// the lifetime crashed.
func lifetime(t *testing.T, path string, a *Agent, clock Clock, ids IDGen, crashAt int, noSync bool) (*Runtime, bool) {
	t.Helper()
	var n atomic.Int64
	rt, err := Open(Options{Path: path, Agents: []*Agent{a}, Clock: clock, IDs: ids, NoSync: noSync,
		CrashAt: func(model.Event) bool { return crashAt > 0 && n.Add(1) == int64(crashAt) }})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	var hs []*RunHandle
	if len(rt.RunIDs()) == 0 {
		h, err := rt.Start(a, RunSpec{Input: sweepInput})
		if err != nil && !rt.Crashed() {
			t.Fatalf("start: %v", err)
		}
		if h != nil {
			hs = append(hs, h)
		}
	} else if !rt.Crashed() {
		if hs, err = rt.Resume(); err != nil && !rt.Crashed() {
			t.Fatalf("resume: %v", err)
		}
	}
	ctx := context.Background() // no wall-clock deadline: go test's -timeout guards against a hang
	for _, h := range hs {
		if _, err := h.Wait(ctx); err != nil && !rt.Crashed() {
			t.Fatalf("wait: %v", err)
		}
	}
	crashed := rt.Crashed()
	if !crashed {
		if err := rt.EndSession(); err != nil {
			t.Fatalf("end session: %v", err)
		}
	}
	rt.Close()
	rt.inflight.Wait() // the "process" is really gone before the next one starts
	return rt, crashed
}

// assertClean checks a finished log: no finding of severity error/warning, every run ended,
// and the log read back rebuilds exactly the runtime's events and tree.
func assertClean(t *testing.T, path string, rt *Runtime) []model.Event {
	t.Helper()
	events, rec, err := ReadLog(path)
	if err != nil {
		t.Fatalf("read back: %v", err)
	}
	if rec.TornBytes != 0 {
		t.Errorf("finished log has a torn tail: %v", rec)
	}
	for _, f := range cleanFindings(events) {
		t.Errorf("finding: %s", f)
	}
	if rt != nil {
		live := rt.Events()
		if !reflect.DeepEqual(live, events) {
			t.Errorf("events in memory differ from the log read back")
		}
		assertSameTree(t, project(events), project(live))
	}
	tree := project(events)
	for _, r := range tree.Sessions[0].Runs {
		if !r.Ended || !r.Status.Terminal() {
			t.Errorf("run %s not ended (status %s)", r.ID, r.Status)
		}
	}
	return events
}

func dumpOnFailure(t *testing.T, path string) {
	if t.Failed() {
		data, _ := os.ReadFile(path)
		t.Logf("log %s:\n%s", path, data)
	}
}

// TestCrashAtEveryEvent crashes the process right after each event of a run in turn, reopens
// the log and resumes: the run always completes, the log stays clean, no earlier event is lost
// and the email's side effect happens exactly once.
func TestCrashAtEveryEvent(t *testing.T) {
	for k := 1; ; k++ {
		dir := t.TempDir()
		path := filepath.Join(dir, "s.jsonl")
		outbox := NewLedger()
		a := sweepAgent(outbox)
		clock, ids := NewVirtualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), SeqIDs()
		_, crashed := lifetime(t, path, a, clock, ids, k, false)
		if !crashed {
			if k < 20 {
				t.Fatalf("the run finished after only %d events", k-1)
			}
			break
		}
		before, _, err := ReadLog(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(before) != k {
			t.Fatalf("crash after event %d left %d events", k, len(before))
		}
		rt, crashed := lifetime(t, path, a, clock, ids, 0, false)
		if crashed {
			t.Fatal("second lifetime crashed")
		}
		events := assertClean(t, path, rt)
		if !reflect.DeepEqual(events[:k], before) {
			t.Errorf("crash after event %d: earlier events changed", k)
		}
		tree := project(events)
		if r := tree.Sessions[0].Runs[0]; r.Status != model.StatusCompleted {
			t.Errorf("crash after event %d (%s): run ended %s %s", k, before[k-1].Type, r.Status, r.StopReason)
		}
		if key, n := outbox.MaxApplied(); n != 1 {
			t.Errorf("crash after event %d (%s): effect %s applied %d times", k, before[k-1].Type, key, n)
		}
		dumpOnFailure(t, path)
		if t.Failed() {
			return
		}
	}
}

// TestTornLastEvent truncates a crashed log at every byte offset of its last event: opening it
// never panics, keeps every earlier event, reports the torn bytes, and the run still resumes to
// a clean completion with the side effect done once.
func TestTornLastEvent(t *testing.T) {
	for _, last := range []model.EventType{model.ToolStart, model.ModelStart, model.StepEnd, model.ToolEnd} {
		t.Run(strings.ReplaceAll(string(last), "/", "-"), func(t *testing.T) {
			// Find the first crash point whose last event has the wanted type.
			var base []byte
			for k := 1; k < 200 && base == nil; k++ {
				path := filepath.Join(t.TempDir(), "s.jsonl")
				_, crashed := lifetime(t, path, sweepAgent(NewLedger()), NewVirtualClock(testBase), SeqIDs(), k, true)
				if !crashed {
					t.Fatalf("no crash point ends with %s", last)
				}
				evs, _, _ := ReadLog(path)
				if evs[len(evs)-1].Type == last {
					base, _ = os.ReadFile(path)
				}
			}
			start := strings.LastIndexByte(strings.TrimSuffix(string(base), "\n"), '\n') + 1
			whole, _, err := ParseLog("base", base)
			if err != nil {
				t.Fatal(err)
			}
			// Every offset is opened and checked; every resumeEvery-th one (and the first and
			// the complete log) is also resumed to completion.
			resumeEvery := 8
			if testing.Short() {
				resumeEvery = 40
			}
			dir := t.TempDir()
			for off := start; off <= len(base); off++ {
				path := filepath.Join(dir, "s.jsonl")
				if err := os.WriteFile(path, base[:off], 0o644); err != nil {
					t.Fatal(err)
				}
				rt, err := Open(Options{Path: path, Agents: []*Agent{sweepAgent(NewLedger())}, NoSync: true})
				if err != nil {
					t.Fatalf("offset %d: %v", off, err)
				}
				rec := rt.Recovery()
				want := whole
				if off < len(base) {
					want = whole[:len(whole)-1]
				}
				if wantTorn := off - start; off < len(base) && rec.TornBytes != wantTorn {
					t.Errorf("offset %d: torn %d bytes, want %d", off, rec.TornBytes, wantTorn)
				}
				if got := rt.Events(); !reflect.DeepEqual(got, want) {
					t.Fatalf("offset %d: %d events read back, want %d (an earlier event was lost or changed)", off, len(got), len(want))
				}
				rt.Close()
				if (off-start)%resumeEvery != 0 && off != len(base) {
					continue
				}
				outbox := NewLedger()
				// A torn last line means the runtime never acted on that event.
				rt2, crashed := lifetime(t, path, sweepAgent(outbox), NewVirtualClock(testBase), SeqIDs(), 0, true)
				if crashed {
					t.Fatal("crashed")
				}
				assertClean(t, path, rt2)
				if _, n := outbox.MaxApplied(); n > 1 {
					t.Errorf("offset %d: side effect applied %d times", off, n)
				}
				if t.Failed() {
					dumpOnFailure(t, path)
					return
				}
			}
		})
	}
}

func ExampleRunScenario() {
	res, err := RunScenario(context.Background(), "approval", ScenarioOptions{Clock: NewVirtualClock(testBase)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Scenario.Expect.Diff(ShapeOf(res.Tree)) == "", len(cleanFindings(res.Events)))
	// Output: true 0
}
