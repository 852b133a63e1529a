package runtime

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

func TestAPIErrors(t *testing.T) {
	ctx := context.Background()
	m := NewScriptedModel("m", final("one"), final("two"))
	a := agent("a", m, Limits{})
	rt, err := Open(Options{Path: filepath.Join(t.TempDir(), "s.jsonl"), IDs: SeqIDs(), Clock: NewVirtualClock(testBase)})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	h, err := rt.Start(a, RunSpec{Input: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := h.Wait(ctx)
	if err != nil || res.Status != model.StatusCompleted || res.Text != "one" || res.Turns != 1 || res.Steps != 1 {
		t.Fatalf("result %+v, %v", res, err)
	}
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"steer an ended run", h.Steer("x"), ErrRunEnded.Error()},
		{"follow up an ended run", h.FollowUp("x"), ErrRunEnded.Error()},
		{"cancel an ended run", h.Cancel(), ErrRunEnded.Error()},
		{"cancel the turn of an ended run", h.CancelTurn(), ErrRunEnded.Error()},
		{"approve what was never asked", h.Approve("tool-9"), "no approval pending"},
		{"retry a completed run", second(rt.Retry(h.ID())), "only a failed or cancelled run is retried"},
		{"retry an unknown run", second(rt.Retry("nope")), "no run nope"},
		{"attach to an unknown run", second(rt.Attach("nope", 0)), "no run nope"},
		{"agent without a model", second(rt.Start(&Agent{Name: "x"}, RunSpec{})), "needs a name and a model"},
		{"two agents, one name", second(rt.Start(agent("a", m, Limits{}), RunSpec{})), `two different agents named "a"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
				t.Errorf("got %v, want %q", tc.err, tc.want)
			}
		})
	}
	if h.CancelModelCall() {
		t.Error("CancelModelCall reported a call in flight on an ended run")
	}
	if err := rt.EndSession(); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Start(a, RunSpec{}); !errors.Is(err, ErrSessionEnded) {
		t.Errorf("start after session end: %v", err)
	}
	for _, f := range cleanFindings(rt.Events()) {
		t.Error(f)
	}
}

func second[T any](_ T, err error) error { return err }

// TestCrashClosesConnections: connections of a dead process are closed on resume (by the
// runtime, with a reason), and the run itself is untouched by them.
func TestCrashClosesConnections(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	ids, clock := SeqIDs(), NewVirtualClock(testBase)
	release := make(chan struct{})
	wait := &FuncTool{ToolName: "wait", Fn: func(ctx context.Context, call Call) (string, error) {
		select {
		case <-release:
			return "ok", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}}
	mk := func() *Agent {
		return agent("a", ModelFunc{ModelName: "m", Fn: func(ctx context.Context, req Request) (Decision, error) {
			if len(req.Messages) == 1 {
				return Decision{ToolCalls: []ToolCall{{Name: "wait"}}}, nil
			}
			return Decision{Text: "done"}, nil
		}}, Limits{}, wait)
	}
	rt, err := Open(Options{Path: path, IDs: ids, Clock: clock, CrashAt: func(ev model.Event) bool { return ev.Type == model.ConnectionOpen }})
	if err != nil {
		t.Fatal(err)
	}
	a := mk()
	h, err := rt.Start(a, RunSpec{Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.WaitFor(ctx, func(r Result) bool { return r.Steps > 0 }); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.Attach(h.ID(), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Wait(ctx); !errors.Is(err, ErrCrashed) {
		t.Fatalf("wait after crash: %v", err)
	}
	rt.Close()
	close(release)
	rt2, err := Open(Options{Path: path, IDs: ids, Clock: clock, Agents: []*Agent{a}})
	if err != nil {
		t.Fatal(err)
	}
	hs, err := rt2.Resume()
	if err != nil || len(hs) != 1 {
		t.Fatalf("resume: %v %v", hs, err)
	}
	if res, err := hs[0].Wait(ctx); err != nil || res.Status != model.StatusCompleted {
		t.Fatalf("resumed run: %+v %v", res, err)
	}
	if err := rt2.EndSession(); err != nil {
		t.Fatal(err)
	}
	rt2.Close()
	events := assertClean(t, path, rt2)
	var closed *model.Event
	for i := range events {
		if events[i].Type == model.ConnectionClose {
			closed = &events[i]
		}
	}
	if closed == nil || closed.Source != model.SourceRuntime || closed.Attrs[attrReason] == nil {
		t.Fatalf("stale connection not closed by the runtime: %+v", closed)
	}
	tree := project(events)
	if r := tree.Sessions[0].Runs[0]; len(r.Resumes) != 1 || len(tree.Sessions[0].Connections) != 1 || !tree.Sessions[0].Connections[0].Ended {
		t.Errorf("resumes %v, connections %+v", r.Resumes, tree.Sessions[0].Connections)
	}
}

// subagentPair is a lead agent delegating to a librarian; both decide from their context.
func subagentPair() (lead, child *Agent) {
	byTurns := func(name string, first Decision) Model {
		return ModelFunc{ModelName: name, Fn: func(ctx context.Context, req Request) (Decision, error) {
			if err := Sleep(ctx, time.Millisecond); err != nil {
				return Decision{}, err
			}
			for _, m := range req.Messages {
				if m.Role == "tool" {
					return Decision{Text: name + " done"}, nil
				}
			}
			return first, nil
		}}
	}
	child = agent("librarian", byTurns("small", Decision{ToolCalls: []ToolCall{{Name: "search"}}}), Limits{}, pure("search", 2*time.Millisecond, "3 papers"))
	lead = agent("lead", byTurns("big", Decision{ToolCalls: []ToolCall{{Name: "research", Args: map[string]any{"task": "papers"}}}}), Limits{}, SubAgent("research", child))
	return lead, child
}

// TestSubagentCrashAtEveryEvent crashes after each event of a parent run whose tool runs a
// sub-agent: on resume both runs continue; the parent's interrupted call is answered by the
// probe (the child run it started), never by a second child.
func TestSubagentCrashAtEveryEvent(t *testing.T) {
	ctx := context.Background()
	step := 1
	if testing.Short() {
		step = 4
	}
	for k := 1; ; k += step {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		ids, clock := SeqIDs(), NewVirtualClock(testBase)
		lead, child := subagentPair()
		rt, err := Open(Options{Path: path, IDs: ids, Clock: clock, NoSync: true, Agents: []*Agent{lead, child},
			CrashAt: func(ev model.Event) bool { return ev.Seq == int64(k) }})
		if err != nil {
			t.Fatal(err)
		}
		h, err := rt.Start(lead, RunSpec{Input: "find papers"})
		if err == nil {
			h.Wait(ctx)
		}
		crashed := rt.Crashed()
		rt.Close()
		rt.inflight.Wait()
		if !crashed {
			if k < 30 {
				t.Fatalf("finished after %d events", k)
			}
			return
		}
		before := rt.Events()
		rt2, err := Open(Options{Path: path, IDs: ids, Clock: clock, NoSync: true, Agents: []*Agent{lead, child}})
		if err != nil {
			t.Fatal(err)
		}
		hs, err := rt2.Resume()
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range hs {
			if _, err := h.Wait(ctx); err != nil {
				t.Fatalf("k=%d: %v", k, err)
			}
		}
		if err := rt2.EndSession(); err != nil {
			t.Fatalf("k=%d: %v", k, err)
		}
		rt2.Close()
		events := assertClean(t, path, rt2)
		if !reflect.DeepEqual(events[:len(before)], before) {
			t.Errorf("k=%d: earlier events changed", k)
		}
		tree := project(events)
		runs := tree.Sessions[0].Runs
		if len(runs) != 2 || runs[0].Status != model.StatusCompleted || runs[1].Status != model.StatusCompleted || runs[1].ParentRunID != runs[0].ID {
			for _, r := range runs {
				t.Errorf("k=%d: run %s kind %q parent %q: %s %s", k, r.ID, r.Kind, r.ParentRunID, r.Status, r.StopReason)
			}
		}
		if t.Failed() {
			dumpOnFailure(t, path)
			return
		}
	}
}
