package lifemap

import (
	"reflect"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestSplitWords: identifiers split at underscores, digits and case changes.
func TestSplitWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"run_single_turn", []string{"run", "single", "turn"}},
		{"eventLoopCycle", []string{"event", "loop", "cycle"}},
		{"MaxTurnsExceededError", []string{"max", "turns", "exceeded", "error"}},
		{"HTTPError", []string{"http", "error"}},
		{"__call__", []string{"call"}},
		{"DEFAULT_MAX_TURNS", []string{"default", "max", "turns"}},
	} {
		if got := splitWords(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestInferTerms: the words each loop shape teaches, read off the names the recognizer found.
func TestInferTerms(t *testing.T) {
	pos := func(l int) model.Position { return model.Position{File: "a.py", Line: l} }
	loop := func(kind model.LoopKind, fn, via, bound, onBound string) model.Loop {
		l := model.Loop{Pos: pos(2), Kind: kind, Func: fn}
		if via != "" {
			l.ModelCalls = []model.CallSite{{Pos: pos(3), Callee: "m.Model.chat", Via: []string{via}}}
		}
		if bound != "" {
			l.Bound = &model.Bound{Expr: bound, Pos: pos(4)}
		}
		if onBound != "" {
			l.OnBound = &model.OnBound{Kind: model.OnBoundError, Value: onBound, Pos: pos(5)}
		}
		return l
	}
	for _, c := range []struct {
		name string
		e    model.Entry
		want []string
	}{
		{"for loop, per-iteration helper, bound and its error",
			model.Entry{Func: "pkg.mod.Runner.run", Loops: []model.Loop{loop(model.LoopFor, "pkg.mod.Runner.run",
				"pkg.mod.Runner._run_single_turn", "self.max_turns", `MaxTurnsExceeded(f"max {self.max_turns}")`)}},
			[]string{"Runner.run, Runner = Run", "turn, _run_single_turn = Step", "max_turns, MaxTurnsExceeded = Bound"}},
		{"recursive cycle: the function is the step",
			model.Entry{Func: "loop.event_loop_cycle", Loops: []model.Loop{loop(model.LoopRecursion, "loop.event_loop_cycle", "", "", "")}},
			[]string{"event_loop_cycle = Run", "event, cycle, event_loop_cycle = Step"}},
		{"camel-case bound; a generic error is not the bound's word",
			model.Entry{Func: "(*agent.Executor).Call", Loops: []model.Loop{loop(model.LoopFor, "(*agent.Executor).Call", "",
				"e.MaxIterations", `fmt.Errorf("too many")`)}},
			[]string{"Executor.Call, Executor = Run", "iteration = Step", "MaxIterations = Bound"}},
		{"a bound named only stop teaches nothing",
			model.Entry{Func: "g.Graph.stream", Loops: []model.Loop{loop(model.LoopFor, "g.Graph.stream", "g.Graph.tick", "stop", "")}},
			[]string{"Graph.stream, Graph = Run", "tick = Step"}},
		{"a bound's phrase and an error sharing one of its words",
			model.Entry{Func: "p.Flow.run", Loops: []model.Loop{loop(model.LoopFor, "p.Flow.run", "",
				"self.config.max_tool_iterations", "GraphToolError()")}},
			[]string{"Flow.run, Flow = Run", "tool iteration = Step", "max_tool_iterations, GraphToolError = Bound"}},
		{"plural in -ies", model.Entry{Func: "p.F.run", Loops: []model.Loop{loop(model.LoopFor, "p.F.run", "", "totalMaxRetries", "")}},
			[]string{"F.run, F = Run", "retry = Step", "totalMaxRetries = Bound"}},
		{"entry without a loop teaches nothing", model.Entry{Func: "a.helper"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.e.Pos = pos(1)
			m := &model.Map{Entries: []model.Entry{c.e}}
			inferTerms(m)
			var got []string
			for _, term := range m.Terms {
				if term.Source != InferredSource || term.Pos.File == "" {
					t.Errorf("term %q: source %q pos %v, want inferred with a position", term.Text, term.Source, term.Pos)
				}
				got = append(got, term.Text)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("terms = %q\nwant %q", got, c.want)
			}
		})
	}
}
