package model_test

import (
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
)

// runDigest is what a run looks like after projection, for comparing two projections.
type runDigest struct {
	status               model.RunStatus
	stop                 model.StopReason
	ended                bool
	turns, steps, models int
	tools, failed        int
	usage                model.Usage
}

func digest(r *model.Run) runDigest {
	d := runDigest{status: r.Status, stop: r.StopReason, ended: r.Ended, turns: len(r.Turns), usage: r.Usage}
	for _, tu := range r.Turns {
		d.steps += len(tu.Steps)
		for _, st := range tu.Steps {
			d.models += len(st.ModelCalls)
			d.tools += len(st.ToolCalls)
			for _, c := range st.ToolCalls {
				if c.Failed() {
					d.failed++
				}
			}
		}
	}
	return d
}

// TestReleaseSameRuns: a projector that hands over each ended run (Release) gives every run of
// the real fixtures exactly as the whole tree has it (status, stop reason, layers, usage), each
// run once, with no late event dropped.
func TestReleaseSameRuns(t *testing.T) {
	var files []string
	for _, g := range []string{"../testdata/traces/*/*.jsonl", "../testdata/traces/*/*.json", "../testdata/samples/*/*.jsonl", "../testdata/samples/*/*.json"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	n := 0
	for _, f := range files {
		var evs []model.Event
		if _, err := tracer.Read([]string{f}, tracer.Options{}, func(ev *model.Event) { evs = append(evs, *ev) }); err != nil {
			continue // not a log (expected.json, package.json, state files)
		}
		n++
		whole := map[string]runDigest{}
		for _, s := range model.Project(evs).Sessions {
			for _, r := range s.Runs {
				whole[r.ID] = digest(r)
			}
		}
		for _, grace := range []int{0, 1} {
			p := model.NewProjector()
			got := map[string]runDigest{}
			p.Release(grace, func(s *model.Session, r *model.Run) {
				if _, dup := got[r.ID]; dup {
					t.Errorf("%s: run %s handed over twice", f, r.ID)
				}
				if s == nil || s.ID != r.SessionID {
					t.Errorf("%s: run %s handed over with session %v", f, r.ID, s)
				}
				got[r.ID] = digest(r)
			})
			for i := range evs {
				ev := evs[i]
				p.Apply(&ev)
			}
			p.Drain()
			if grace == 1 && p.Late() > 0 {
				continue // a tracer that writes after run/end: the default grace is what holds
			}
			if p.Late() != 0 || len(got) != len(whole) {
				t.Errorf("%s grace %d: %d runs handed over, %d late events; the tree has %d runs", f, grace, len(got), p.Late(), len(whole))
			}
			for id, w := range whole {
				if got[id] != w {
					t.Errorf("%s grace %d: run %s\n got %+v\nwant %+v", f, grace, id, got[id], w)
				}
			}
		}
	}
	if n < 50 {
		t.Fatalf("only %d logs read", n)
	}
}

// TestReleaseLateEvents: an event of a run inside the grace window still reaches it; after the
// window it is counted in Late and opens no placeholder run.
func TestReleaseLateEvents(t *testing.T) {
	p := model.NewProjector()
	var runs []*model.Run
	p.Release(2, func(_ *model.Session, r *model.Run) { runs = append(runs, r) })
	seq := int64(0)
	ev := func(e model.Event) {
		seq++
		e.V, e.Seq, e.SessionID = 1, seq, "s"
		p.Apply(&e)
	}
	ev(model.Event{Type: model.SessionStart})
	ev(model.Event{Type: model.RunStart, RunID: "r"})
	ev(model.Event{Type: model.RunEnd, RunID: "r", Status: model.StatusCompleted, StopReason: model.StopGoalReached})
	ev(model.Event{Type: model.TurnStart, RunID: "r", TurnID: "t"}) // late, within the window
	if len(runs) != 0 {
		t.Fatalf("run handed over before its grace: %d", len(runs))
	}
	ev(model.Event{Type: model.RunStart, RunID: "r2"})
	ev(model.Event{Type: model.RunStart, RunID: "r3"})
	if len(runs) != 1 || len(runs[0].Turns) != 1 {
		t.Fatalf("after the window: %d runs handed over (want r with its late turn)", len(runs))
	}
	ev(model.Event{Type: model.TurnEnd, RunID: "r", TurnID: "t"}) // after the window
	if p.Late() != 1 {
		t.Errorf("late = %d, want 1", p.Late())
	}
	p.Drain()
	if len(runs) != 3 || runs[1].ID != "r2" || runs[2].ID != "r3" || runs[2].Ended {
		t.Errorf("drained %d runs", len(runs))
	}
}
