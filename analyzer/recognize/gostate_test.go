package recognize_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// siteLines returns the base:line of each call site, sorted.
func siteLines(cs []model.CallSite) string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("%s:%d", filepath.Base(c.Pos.File), c.Pos.Line))
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

func exitLines(xs []model.Exit) string {
	var out []string
	for _, x := range xs {
		o := x.Outcome
		if x.StopReason != "" {
			o += " (" + string(x.StopReason) + ")"
		}
		out = append(out, fmt.Sprintf("%s:%d %s", filepath.Base(x.Pos.File), x.Pos.Line, o))
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

// TestGoState checks Go turn loops whose step is behind one opaque interface call sharing a
// state (shape opstep: the model call and the tools in each implementation, in other
// packages; the loop's leave test reads the last message the step appended to the state),
// model calls in the two branches of an if (shape branchstep), the iterator body's last
// statement yielding the bound's error and an iterator reached through handler adapters
// (shape genloop), and a condition-less loop bounded by counter == limit (counterloop).
func TestGoState(t *testing.T) {
	res := recognizeShapes(t)
	tests := []struct {
		entry, loop, bound, def, onBound string
		models, tools                    string
		exits                            string
	}{
		{"opstep.Agent.Run", "agent.go:52", "a.MaxTurns", "10", "error max_turns agent.go:60",
			"step.go:31 step.go:36", "step.go:42 step.go:55",
			"agent.go:54 failed (error), agent.go:57 completed (goal_reached), agent.go:60 failed (max_turns)"},
		// the model asked through a helper, one of three ways: each call it returns the
		// result of is a model call of the step
		{"branchstep.Agent.Run", "agent.go:57", "a.maxSteps", "12", "error max_steps agent.go:81",
			"agent.go:88 agent.go:94 agent.go:96", "agent.go:74",
			"agent.go:60 failed (error), agent.go:65 completed (goal_reached), agent.go:81 failed (max_steps)"},
		{"branchstep.Loop.Answer", "inline.go:30", "l.Limit", "", "error max_turns inline.go:57",
			"inline.go:34 inline.go:36", "inline.go:50",
			"inline.go:39 failed (error), inline.go:43 completed (goal_reached), inline.go:57 failed (max_turns)"},
		// the bound's outcome as the iterator body's last statement: yield(nil, Err…), no
		// return after it, fails the run
		{"genloop.Agent.Run", "agent.go:42", "a.maxIter", "20", "error max_steps agent.go:66",
			"agent.go:43", "agent.go:55",
			"agent.go:40 propagated, agent.go:46 failed (error), agent.go:52 completed (goal_reached), agent.go:60 propagated, agent.go:66 failed (max_steps)"},
		// the iterator made by a func literal a helper returns, reached through a handler
		// adapter and a middleware: the entry passing it on has the iterator body's exits
		{"genloop.Server.Serve", "handler.go:55", "a.maxIter", "20", "error max_steps handler.go:77",
			"handler.go:56", "handler.go:68",
			"handler.go:47 propagated, handler.go:59 failed (error), handler.go:65 completed (goal_reached), handler.go:71 failed (error), handler.go:77 failed (max_steps)"},
		// a condition-less loop, a counter compared for equality with a local limit
		{"counterloop.Agent.Ask", "agent.go:36", "limit", "14", "silent max_steps agent.go:47",
			"agent.go:37", "agent.go:54",
			"agent.go:39 failed (error), agent.go:44 completed (goal_reached), agent.go:47 propagated (max_steps)"},
	}
	at := func(p model.Position) string { return fmt.Sprintf("%s:%d", filepath.Base(p.File), p.Line) }
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			e := entry(res, tt.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want one entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			if at(l.Pos) != tt.loop {
				t.Errorf("loop at %s, want %s", at(l.Pos), tt.loop)
			}
			if l.Bound == nil || l.Bound.Expr != tt.bound || l.Bound.Default != tt.def {
				t.Errorf("bound %+v, want %s default %q", l.Bound, tt.bound, tt.def)
			}
			if ob := l.OnBound; ob == nil || fmt.Sprintf("%s %s %s", ob.Kind, ob.StopReason, at(ob.Pos)) != tt.onBound {
				t.Errorf("at bound %+v, want %s", l.OnBound, tt.onBound)
			}
			if got := siteLines(l.ModelCalls); got != tt.models {
				t.Errorf("model calls %s, want %s", got, tt.models)
			}
			if got := siteLines(l.ToolCalls); got != tt.tools {
				t.Errorf("tool calls %s, want %s", got, tt.tools)
			}
			if got := exitLines(e.Exits); got != tt.exits {
				t.Errorf("exits %s, want %s", got, tt.exits)
			}
		})
	}
	// the step implementations are the loop's, not entries of their own; a constructor that
	// only keeps the handler running the loop (wrapped in middlewares) runs nothing
	for _, name := range []string{"chatstep.Step.Generate", "plainstep.Step.Generate", "genloop.NewServer"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: no entry, got %+v", name, e.Loops)
		}
	}
	// the plain step's leave test is the caller's, on the state the step appended its reply to
	for _, l := range res.Loops {
		for _, m := range l.Map.ModelCalls {
			if filepath.Base(m.Pos.File) == "step.go" && m.Pos.Line == 31 {
				found := false
				for _, ev := range m.Provenance.Evidence {
					found = found || strings.Contains(ev, "len(last.ToolCalls) == 0")
				}
				if !found {
					t.Errorf("plainstep model call: want the caller's test of the shared state as evidence, got %v", m.Provenance.Evidence)
				}
			}
		}
	}
}
