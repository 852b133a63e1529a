package recognize_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestBoundsExitsIDs checks the bound shapes other than `for i < n` (stop-condition lists,
// optional limits checked in a helper, a functional option's default in the constructor),
// what happens at the bound, exits through result cells (deferred calls) and through a
// delegated loop, and the ids minted by a counter and handed to a child.
func TestBoundsExitsIDs(t *testing.T) {
	res := recognizeShapes(t)
	tests := []struct {
		entry      string
		bound, def string // bound expression and default ("" = no bound)
		defLine    int    // line of the default's definition, 0 = not checked
		optional   bool
		onBound    string // kind at the bound
		exits      map[int]string
		ids        []string // "kind line"
	}{
		{entry: "deferagent.Agent.Run", bound: "a.maxIter", def: "2", defLine: 36, onBound: model.OnBoundSilent,
			exits: map[int]string{50: "not_started", 53: "completed", 55: "propagated", 64: "failed (error)", 69: "completed (goal_reached)", 78: "completed (max_steps)"}},
		{entry: "stopagent.Agent.Generate", bound: "call.StopWhen", def: "none", optional: true, onBound: model.OnBoundSilent,
			exits: map[int]string{46: "failed (error)", 66: "completed (goal_reached)"}},
		{entry: "limitagent.Flow.Run", bound: "inv.MaxLLMCalls", def: "", optional: true, onBound: model.OnBoundError,
			exits: map[int]string{40: "failed (max_steps)", 44: "failed (error)", 49: "completed (goal_reached)"}},
		{entry: "deepbound.Flow.Run", bound: "inv.MaxLLMCalls", optional: true, onBound: model.OnBoundError,
			exits: map[int]string{58: "failed (max_steps)", 62: "failed (error)", 67: "completed (goal_reached)"}},
		{entry: "deepbound.Runner.Run", bound: "r.Params.MaxIterations", optional: true, onBound: model.OnBoundSilent,
			exits: map[int]string{39: "failed (error)", 42: "completed", 46: "failed (error)", 52: "completed (goal_reached)"}},
		{entry: "chatresume.Chatter.Chat",
			exits: map[int]string{63: "not_started", 71: "failed (error)", 74: "completed (goal_reached)", 76: "waiting"}},
		// the first decision made through a helper that reaches the model call in another
		// package (start -> Engine.Start -> complete) starts the run: its failure is failed
		{entry: "firststep.Runner.Chat",
			exits: map[int]string{53: "not_started", 57: "failed (error)", 61: "failed (error)", 63: "completed (goal_reached)"}},
		// a launch that fails only before the run starts (a before-run callback refusing, or
		// answering in its place with a custom response carried in an error): its failure path
		// returns before the run, whatever the tracer context and the tracked named result
		{entry: "beforecb.Agent.Run",
			exits: map[int]string{103: "completed (goal_reached)", 106: "not_started", 108: "started"}},
		{entry: "iterflow.Flow.Run",
			exits: map[int]string{28: "propagated", 33: "failed (error)", 38: "propagated", 41: "completed (goal_reached)", 45: "failed (error)"}},
		// the run's id minted in the iterator body the entry returns ("r-" + rand.Text() into
		// invocationID); a tool call's id (into ToolCall.ID) is not a run's
		{entry: "yieldsteps.Flow.Run", ids: []string{"minted 56"},
			exits: map[int]string{55: "propagated", 62: "failed (error)", 66: "propagated", 71: "completed (goal_reached)"}},
		{entry: "idagent.Engine.Run", ids: []string{"minted 31", "minted 35", "parent 35"},
			exits: map[int]string{51: "failed (error)", 55: "completed (goal_reached)"}},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			e := entry(res, tt.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want one entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			switch {
			case tt.bound == "" && l.Bound != nil:
				t.Errorf("bound %+v, want none", l.Bound)
			case tt.bound != "" && l.Bound == nil:
				t.Errorf("no bound, want %s", tt.bound)
			case tt.bound != "":
				if l.Bound.Expr != tt.bound || l.Bound.Default != tt.def || l.Bound.Optional != tt.optional {
					t.Errorf("bound %s default %q optional %v, want %s default %q optional %v", l.Bound.Expr, l.Bound.Default, l.Bound.Optional, tt.bound, tt.def, tt.optional)
				}
				if tt.defLine != 0 && l.Bound.DefaultPos.Line != tt.defLine {
					t.Errorf("default at %s, want line %d", l.Bound.DefaultPos, tt.defLine)
				}
				if l.OnBound == nil || l.OnBound.Kind != tt.onBound {
					t.Errorf("at bound %+v, want %s", l.OnBound, tt.onBound)
				}
			}
			got := map[int]string{}
			for _, x := range e.Exits {
				o := x.Outcome
				if x.StopReason != "" {
					o += " (" + string(x.StopReason) + ")"
				}
				got[x.Pos.Line] = o
			}
			for line, o := range tt.exits {
				if got[line] != o && !(strings.HasPrefix(got[line], o+" (") && !strings.Contains(o, "(")) {
					t.Errorf("exit at line %d: %q, want %q (all: %v)", line, got[line], o, got)
				}
			}
			if len(got) != len(tt.exits) {
				t.Errorf("exits %v, want the lines of %v", got, tt.exits)
			}
			var ids []string
			for _, s := range e.IDs {
				ids = append(ids, fmt.Sprintf("%s %d", s.Kind, s.Pos.Line))
			}
			if fmt.Sprint(ids) != fmt.Sprint(tt.ids) && !(len(ids) == 0 && len(tt.ids) == 0) {
				t.Errorf("ids %v, want %v", ids, tt.ids)
			}
		})
	}
}
