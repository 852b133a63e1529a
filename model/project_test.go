package model

import (
	"encoding/json"
	"math/rand"
	"testing"
	"time"
)

func TestProjectClean(t *testing.T) {
	tree := Project(readLog(t, "../testdata/invariants/clean.jsonl"))
	got := tree.Summarize()
	want := Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 2, ModelCalls: 2, ToolCalls: 2}
	if got != want {
		t.Fatalf("summary %+v, want %+v", got, want)
	}
	r := tree.Sessions[0].Runs[0]
	if r.Status != StatusCompleted || r.StopReason != StopGoalReached || !r.Ended || r.Agent != "helper" || r.AgentVersion != "v3" || r.Attempt != 1 {
		t.Fatalf("run %+v", r)
	}
	if u := r.Usage; u.InputTokens != 320 || u.OutputTokens != 70 {
		t.Fatalf("run usage %+v, want 320/70", u)
	}
	if u := tree.Sessions[0].Usage; u.InputTokens != 320 {
		t.Fatalf("session usage counted twice or not at all: %+v", u)
	}
	st := r.Turns[0].Steps[0]
	if st.Index != 1 || len(st.ToolCalls) != 2 || st.Duration() <= 0 || st.Usage.InputTokens != 120 {
		t.Fatalf("step %+v", st)
	}
	if tree.Timeless {
		t.Fatal("stamped log reported timeless")
	}
	if len(r.History) != 3 || r.History[0].Status != StatusQueued || r.History[2].Status != StatusCompleted {
		t.Fatalf("history %+v", r.History)
	}
}

// TestProjectOrderIndependent: any arrival order rebuilds exactly the same tree, also when
// events are applied one by one with the tree read in between.
func TestProjectOrderIndependent(t *testing.T) {
	evs := readLog(t, "../testdata/invariants/L13_side_effect_twice_after_resume.jsonl")
	want := mustJSON(t, Project(evs))
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		shuffled := append([]Event(nil), evs...)
		rng.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		if got := mustJSON(t, Project(shuffled)); got != want {
			t.Fatalf("shuffle %d: tree differs\n got %s\nwant %s", i, got, want)
		}
	}
	p := NewProjector()
	for i := range evs {
		p.Apply(&evs[i])
	}
	if got := mustJSON(t, p.Tree()); got != want {
		t.Fatal("incremental projection differs")
	}
}

func TestProjectPlaceholders(t *testing.T) {
	evs := readLog(t, "../testdata/invariants/clean.jsonl")
	tree := Project(evs[4:]) // session/start, run/* and turn/start missing
	if s := tree.Summarize(); s.Runs != 1 || s.Turns != 1 || s.Steps != 2 {
		t.Fatalf("summary %+v", s)
	}
	if len(tree.Notes) == 0 {
		t.Fatal("placeholders not noted")
	}
	tu := tree.Sessions[0].Runs[0].Turns[0]
	if len(tu.Inferred) == 0 || tu.Inferred[0] != "placeholder" {
		t.Fatalf("turn not marked placeholder: %+v", tu.Inferred)
	}
}

func TestProjectTimeless(t *testing.T) {
	evs := readLog(t, "../testdata/invariants/clean.jsonl")
	for i := range evs {
		evs[i].TS = time.Time{}
	}
	tree := Project(evs)
	if !tree.Timeless {
		t.Fatal("tree without timestamps not marked timeless")
	}
	if s := tree.Summarize(); s.Steps != 2 || s.ToolCalls != 2 {
		t.Fatalf("order lost: %+v", s)
	}
	if f := CheckEvents(evs); len(f) != 0 {
		t.Fatalf("timeless clean log has findings: %v", f)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestProjectAfterRunEnd: an ended run's turns, steps and calls leave the projector's maps
// (retire), yet events that come after its run/end still find them, and a later run that reuses
// its ids gets nodes of its own.
func TestProjectAfterRunEnd(t *testing.T) {
	var evs []Event
	add := func(typ EventType, run, turn, step, call string, f func(*Event)) {
		ev := Event{V: 1, Seq: int64(len(evs) + 1), Type: typ, SessionID: "s", RunID: run, TurnID: turn, StepID: step, CallID: call}
		if f != nil {
			f(&ev)
		}
		evs = append(evs, ev)
	}
	ok := func(ev *Event) { ev.Outcome = OutcomeOK }
	done := func(ev *Event) { ev.Status = StatusCompleted }
	add(SessionStart, "", "", "", "", nil)
	for _, run := range []string{"a", "b"} {
		add(RunStart, run, "", "", "", nil)
		add(TurnStart, run, "t1", "", "", nil)
		add(StepStart, run, "t1", "s1", "", nil)
		add(ModelStart, run, "t1", "s1", "m1", nil)
		add(ToolStart, run, "t1", "s1", "c1", nil)
		add(RunEnd, run, "", "", "", done)
		add(ModelEnd, run, "t1", "s1", "m1", ok) // after the run ended
		add(ToolEnd, run, "t1", "s1", "c1", ok)
		add(StepEnd, run, "t1", "s1", "", ok)
		add(TurnEnd, run, "t1", "", "", ok)
	}
	tree := Project(evs)
	if s := tree.Summarize(); s != (Summary{Sessions: 1, Runs: 2, Turns: 2, Steps: 2, ModelCalls: 2, ToolCalls: 2}) {
		t.Fatalf("summary %+v; notes %q", s, tree.Notes)
	}
	if len(tree.Notes) != 0 {
		t.Fatalf("notes %q", tree.Notes)
	}
	for _, r := range tree.Sessions[0].Runs {
		st := r.Turns[0].Steps[0]
		if !st.Ended || !st.ModelCalls[0].Ended || st.ToolCalls[0].Outcome != OutcomeOK || len(st.ToolCalls[0].Inferred) != 0 {
			t.Fatalf("run %s: step %+v, tool %+v", r.ID, st, st.ToolCalls[0])
		}
	}
}
