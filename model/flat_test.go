package model

import (
	"strconv"
	"testing"
	"time"
)

// feeder makes canonical events one at a time, numbering them per session.
type feeder struct {
	c    *Checker
	sink func(*Event) // instead of c.Check
	t    time.Time
	seq  map[string]int64
}

func (f *feeder) ev(e Event) {
	if f.seq == nil {
		f.seq, f.t = map[string]int64{}, time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	}
	f.seq[e.SessionID]++
	f.t = f.t.Add(time.Millisecond)
	e.V, e.Seq, e.TS, e.Source = 1, f.seq[e.SessionID], f.t, SourceRuntime
	if f.sink != nil {
		f.sink(&e)
		return
	}
	f.c.Check(&e)
}

// smallRuns feeds n runs of one turn, one step and one model call each, per runs to a session.
func (f *feeder) smallRuns(from, n, per int) {
	for i := from; i < from+n; i++ {
		s, r := "s"+strconv.Itoa(i/per), "r"+strconv.Itoa(i)
		tu, st, m := "t"+strconv.Itoa(i), "st"+strconv.Itoa(i), "m"+strconv.Itoa(i)
		if i%per == 0 {
			f.ev(Event{Type: SessionStart, SessionID: s})
		}
		f.ev(Event{Type: RunStart, SessionID: s, RunID: r, Attempt: 1})
		f.ev(Event{Type: TurnStart, SessionID: s, RunID: r, TurnID: tu})
		f.ev(Event{Type: StepStart, SessionID: s, RunID: r, TurnID: tu, StepID: st})
		f.ev(Event{Type: ModelStart, SessionID: s, RunID: r, TurnID: tu, StepID: st, CallID: m})
		f.ev(Event{Type: ModelEnd, SessionID: s, RunID: r, TurnID: tu, StepID: st, CallID: m, Outcome: OutcomeOK, Usage: &Usage{InputTokens: 10}})
		f.ev(Event{Type: StepEnd, SessionID: s, RunID: r, TurnID: tu, StepID: st, Outcome: OutcomeOK})
		f.ev(Event{Type: TurnEnd, SessionID: s, RunID: r, TurnID: tu, Outcome: OutcomeOK, StopReason: StopGoalReached})
		f.ev(Event{Type: RunEnd, SessionID: s, RunID: r, Status: StatusCompleted, StopReason: StopGoalReached})
		if i%per == per-1 {
			f.ev(Event{Type: SessionEnd, SessionID: s})
		}
	}
}

// steps feeds n steps (a model call and a tool call each) into the open turn t1 of run r1.
func (f *feeder) steps(from, n int) {
	for i := from; i < from+n; i++ {
		st := "st" + strconv.Itoa(i)
		base := Event{SessionID: "s", RunID: "r1", TurnID: "t1", StepID: st}
		e := func(typ EventType, call string, o Outcome) Event {
			x := base
			x.Type, x.CallID, x.Outcome = typ, call, o
			return x
		}
		f.ev(e(StepStart, "", ""))
		f.ev(e(ModelStart, "m"+strconv.Itoa(i), ""))
		f.ev(e(ModelEnd, "m"+strconv.Itoa(i), OutcomeOK))
		f.ev(e(ToolStart, "c"+strconv.Itoa(i), ""))
		f.ev(e(ToolEnd, "c"+strconv.Itoa(i), OutcomeOK))
		f.ev(e(StepEnd, "", OutcomeOK))
	}
}

// retained counts what the checker holds besides its id table and seq counters: every map
// entry of its node state, the children held by live runs and turns, the held events.
func (c *Checker) retained() int {
	n := len(c.runs) + len(c.turns) + len(c.steps) + len(c.calls) + len(c.sessions) + len(c.conns) +
		len(c.findings) + len(c.clocks) + len(c.parents.up) + len(c.parents.waiting) + len(c.seq.held)
	for _, r := range c.runs {
		n += len(r.turns) + len(r.keys) + len(r.steers) + len(r.followUps) + len(r.approvals)
		if r.lastStep != nil {
			n += 1 + len(r.lastStep.calls)
		}
	}
	for _, t := range c.turns {
		n += len(t.steps)
		for _, s := range t.steps {
			n += len(s.calls)
		}
	}
	return n
}

// TestCheckerMemoryFlat: what the checker keeps does not grow with the number of ended runs (or
// sessions), nor with the number of ended steps of a turn that is still open; only the id table
// grows, by one 8-byte slot an id (11–21 bytes with its free space), and the seq counters, by
// one a session. Ten times the input, the same retained state.
func TestCheckerMemoryFlat(t *testing.T) {
	t.Run("ended runs", func(t *testing.T) {
		for _, per := range []int{1, 4} {
			f := &feeder{c: NewChecker()}
			f.smallRuns(0, 400, per)
			small := f.c.retained()
			f.smallRuns(400, 3600, per)
			if got := f.c.retained(); got != small || got != 0 {
				t.Errorf("%d runs a session: retained %d entries after 400 runs, %d after 4000; want 0 both", per, small, got)
			}
			if ids, want := f.c.ids.len(), 4000*4+4000/per; ids != want {
				t.Errorf("id table holds %d ids, want %d", ids, want)
			}
			if b := 8 * len(f.c.ids.slots); b > 22*f.c.ids.len() {
				t.Errorf("id table takes %d bytes for %d ids", b, f.c.ids.len())
			}
			if len(f.c.seq.next) != 4000/per {
				t.Errorf("%d seq counters, want one a session (%d)", len(f.c.seq.next), 4000/per)
			}
			if fs := f.c.Finish(); len(fs) != 0 {
				t.Errorf("findings %v", fs)
			}
		}
	})
	t.Run("ended steps of an open turn", func(t *testing.T) {
		f := &feeder{c: NewChecker()}
		f.ev(Event{Type: SessionStart, SessionID: "s"})
		f.ev(Event{Type: RunStart, SessionID: "s", RunID: "r1"})
		f.ev(Event{Type: TurnStart, SessionID: "s", RunID: "r1", TurnID: "t1"})
		f.steps(0, 500)
		small := f.c.retained()
		f.steps(500, 4500)
		if got := f.c.retained(); got != small {
			t.Errorf("retained %d entries after 500 steps, %d after 5000", small, got)
		}
		f.ev(Event{Type: TurnEnd, SessionID: "s", RunID: "r1", TurnID: "t1", Outcome: OutcomeOK, StopReason: StopGoalReached})
		f.ev(Event{Type: RunEnd, SessionID: "s", RunID: "r1", Status: StatusCompleted, StopReason: StopGoalReached})
		if fs := f.c.Finish(); len(fs) != 0 {
			t.Errorf("findings %v", fs)
		}
	})
}

// TestCheckerForgottenNodes: what the checker says about events for nodes it has forgotten
// (ended runs, steps, calls, sessions, connections) is what it said when it kept them.
func TestCheckerForgottenNodes(t *testing.T) {
	base := func() *feeder {
		f := &feeder{c: NewChecker()}
		f.ev(Event{Type: SessionStart, SessionID: "s"})
		f.ev(Event{Type: ConnectionOpen, SessionID: "s", ConnectionID: "k"})
		f.ev(Event{Type: RunStart, SessionID: "s", RunID: "r1"})
		f.ev(Event{Type: TurnStart, SessionID: "s", RunID: "r1", TurnID: "t1"})
		f.steps(0, 3)
		return f
	}
	tests := []struct {
		name string
		more func(f *feeder)
		want string
	}{
		{"call ended twice", func(f *feeder) {
			f.ev(Event{Type: ToolEnd, SessionID: "s", RunID: "r1", TurnID: "t1", StepID: "st0", CallID: "c0", Outcome: OutcomeOK})
		}, "L3"},
		{"step ended twice", func(f *feeder) {
			f.ev(Event{Type: StepEnd, SessionID: "s", RunID: "r1", TurnID: "t1", StepID: "st0", Outcome: OutcomeOK})
		}, "L3"},
		{"last step ended twice", func(f *feeder) {
			f.ev(Event{Type: StepEnd, SessionID: "s", RunID: "r1", TurnID: "t1", StepID: "st2", Outcome: OutcomeOK})
		}, "L3"},
		{"call in an ended step", func(f *feeder) {
			f.ev(Event{Type: ToolStart, SessionID: "s", RunID: "r1", TurnID: "t1", StepID: "st0", CallID: "late"})
			f.ev(Event{Type: ToolEnd, SessionID: "s", RunID: "r1", TurnID: "t1", StepID: "st0", CallID: "late", Outcome: OutcomeOK})
		}, "L2"},
		{"step id reused", func(f *feeder) {
			f.ev(Event{Type: StepStart, SessionID: "s", RunID: "r1", TurnID: "t1", StepID: "st1"})
			f.ev(Event{Type: StepEnd, SessionID: "s", RunID: "r1", TurnID: "t1", StepID: "st1", Outcome: OutcomeOK})
		}, "L1"},
		{"connection closed twice", func(f *feeder) {
			f.ev(Event{Type: ConnectionClose, SessionID: "s", ConnectionID: "k"})
			f.ev(Event{Type: ConnectionClose, SessionID: "s", ConnectionID: "k"})
		}, "L3"},
		{"session ended twice", func(f *feeder) {
			f.ev(Event{Type: TurnEnd, SessionID: "s", RunID: "r1", TurnID: "t1", Outcome: OutcomeOK, StopReason: StopGoalReached})
			f.ev(Event{Type: RunEnd, SessionID: "s", RunID: "r1", Status: StatusCompleted, StopReason: StopGoalReached})
			f.ev(Event{Type: SessionEnd, SessionID: "s"})
			f.ev(Event{Type: SessionEnd, SessionID: "s"})
		}, "L3"},
		{"run after its session ended", func(f *feeder) {
			f.ev(Event{Type: TurnEnd, SessionID: "s", RunID: "r1", TurnID: "t1", Outcome: OutcomeOK, StopReason: StopGoalReached})
			f.ev(Event{Type: RunEnd, SessionID: "s", RunID: "r1", Status: StatusCompleted, StopReason: StopGoalReached})
			f.ev(Event{Type: SessionEnd, SessionID: "s"})
			f.ev(Event{Type: RunStart, SessionID: "s", RunID: "r2"})
		}, "L2"},
		{"turn in an ended run", func(f *feeder) {
			f.ev(Event{Type: TurnEnd, SessionID: "s", RunID: "r1", TurnID: "t1", Outcome: OutcomeOK, StopReason: StopGoalReached})
			f.ev(Event{Type: RunEnd, SessionID: "s", RunID: "r1", Status: StatusCompleted, StopReason: StopGoalReached})
			f.ev(Event{Type: TurnStart, SessionID: "s", RunID: "r1", TurnID: "t2"})
		}, "L4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := base()
			tt.more(f)
			var codes []string
			for _, fd := range f.c.Finish() {
				if fd.Severity != SevInfo {
					codes = append(codes, fd.Code+": "+fd.Message)
				}
			}
			if len(codes) != 1 || codes[0][:len(tt.want)+1] != tt.want+":" {
				t.Fatalf("findings %q, want one %s", codes, tt.want)
			}
		})
	}
}

// TestProjectorIndexFlat: the projector must hold the tree, but besides it keeps, per ended
// run, only its entries in the id maps (runs, sessions) and a seq counter a session: no index
// entry, no retirement mark.
func TestProjectorIndexFlat(t *testing.T) {
	p := NewProjector()
	f := &feeder{sink: p.Apply}
	f.smallRuns(0, 3000, 3)
	tree := p.Tree()
	if got := tree.Summarize(); got.Runs != 3000 || got.Sessions != 1000 || got.ModelCalls != 3000 {
		t.Fatalf("summary %+v", got)
	}
	if n := len(p.live.turns) + len(p.live.steps) + len(p.live.models) + len(p.live.tools) + len(p.own) + len(p.seq.held); n != 0 {
		t.Fatalf("projector keeps %d index entries after 3000 ended runs, want 0", n)
	}
	if len(p.runs) != 3000 || len(p.sessions) != 1000 || len(p.seq.next) != 1000 {
		t.Fatalf("id maps: %d runs, %d sessions, %d seq counters", len(p.runs), len(p.sessions), len(p.seq.next))
	}
}
