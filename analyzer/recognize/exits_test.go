package recognize_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/packages"
)

// exitsByLine maps an entry's exits to "outcome" or "outcome (stop reason)" by line.
func exitsByLine(e *model.Entry) map[int]string {
	got := map[int]string{}
	for _, x := range e.Exits {
		o := x.Outcome
		if x.StopReason != "" {
			o += " (" + string(x.StopReason) + ")"
		}
		got[x.Pos.Line] = o
	}
	return got
}

// TestHelperAndHookExits: exits reached through helpers (each `return helper(ctx, …)` hands
// back the callee's exits), hooks of a func-typed configuration field before, inside and
// after the loop (a failure before the run starts is not_started, after it failed, never
// completed), a session created before the loop, the completion hook's error returned
// directly after the loop (failed, not the bound's), a streaming entry without a turn loop
// (one step in a goroutine) and a turn loop around a retrying helper.
func TestHelperAndHookExits(t *testing.T) {
	res := recognizeShapes(t)
	tests := []struct {
		entry string
		exits map[int]string
	}{
		{"helperexit.Agent.Answer", map[int]string{40: "not_started", 42: "propagated", 47: "propagated", 53: "cancelled (cancelled)", 57: "failed (error)",
			62: "completed (goal_reached)", 68: "failed (max_steps)"}},
		// the final answer's branch breaks to a hook run after the loop: still the loop's
		// decision (the loop is recognized), the hook's failure fails the run
		{"helperexit.Agent.Hooked", map[int]string{75: "not_started", 78: "not_started", 85: "failed (error)",
			90: "failed (error)", 101: "failed (error)", 103: "completed (goal_reached)"}},
		{"helperexit.Agent.Finish", map[int]string{113: "failed (error)", 125: "failed (error)"}},
		// no turn loop: a goroutine makes one model call and runs its tools once, the entry
		// returns the channel it streams on
		{"streamonce.Agent.Stream", map[int]string{28: "not_started", 48: "started"}},
		// a retry of the model call in a helper (no pause) is no turn loop of its own
		{"retryhelper.Agent.Answer", map[int]string{35: "cancelled (cancelled)", 39: "failed (error)", 44: "completed (goal_reached)", 50: "failed (max_steps)"}},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			e := entry(res, tt.entry)
			if e == nil {
				t.Fatalf("no entry %s", tt.entry)
			}
			got := exitsByLine(e)
			for line, o := range tt.exits {
				if got[line] != o {
					t.Errorf("exit at line %d: %q, want %q (all: %v)", line, got[line], o, got)
				}
			}
			if len(got) != len(tt.exits) {
				t.Errorf("exits %v, want the lines of %v", got, tt.exits)
			}
		})
	}
	if e := entry(res, "streamonce.Agent.Stream"); e != nil && len(e.Loops) != 0 {
		t.Errorf("streamonce.Agent.Stream loops %+v, want none", e.Loops)
	}
	if e := entry(res, "retryhelper.Agent.Answer"); e == nil || len(e.Loops) != 1 || e.Loops[0].Pos.Line != 33 {
		t.Errorf("retryhelper.Agent.Answer: want the turn loop at line 33, got %+v", e)
	}
	if e := entry(res, "helperexit.Agent.Finish"); e != nil && len(e.Loops) == 1 {
		if ob := e.Loops[0].OnBound; ob == nil || ob.Kind != model.OnBoundSilent {
			t.Errorf("Finish at bound %+v, want silent (the hook after the loop decides)", ob)
		}
	}
}

// TestTestFakeBound: a test's fake model that scripts its answers with a counter (if f.n == 1
// { return tool calls }) bounds no run: loaded with the package's tests, the loop still has
// no bound.
func TestTestFakeBound(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: mode | packages.NeedForTest, Dir: "testdata/shapes", Tests: true}, "./deepentry")
	if err != nil {
		t.Fatal(err)
	}
	var test []*packages.Package
	for _, p := range pkgs {
		if p.ForTest != "" {
			test = append(test, p)
		}
	}
	if len(test) == 0 {
		t.Fatal("no test variant loaded")
	}
	prog, err := goir.Build(test[:1])
	if err != nil {
		t.Fatal(err)
	}
	res := recognize.Recognize(prog, recognize.Options{})
	e := entry(res, "deepentry.Agent.Chat")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("want one entry with one loop: %s", describe(res))
	}
	if b := e.Loops[0].Bound; b != nil {
		t.Errorf("bound %s at %s, want none (the counter is the test fake's)", b.Expr, b.Pos)
	}
}
