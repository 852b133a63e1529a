package recognize_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestRunnerPorts checks a Go port of a runner-style agents SDK (shape agentsgo): the turn
// loop in a closure handed to a tracing wrapper (through manageTraceCtx, or tracing.WithTrace
// directly), a package-level Run delegating to DefaultRunner.Run, the model reached three
// calls deep on a Model interface resolved from a ModelProvider, tool calls collected from a
// union of output items (a switch on item.Type, or a type switch on item.AsAny()) and run
// through a func-valued field in goroutines (wg.Go) or one after the other (inside a span
// wrapper's callback, after a hook told of the tool: neither the span nor the hook is a tool
// call), the first turn's model call in a goroutine beside the input guardrails, a bound
// currentTurn > maxTurns whose default is a constant of another file or package set by a
// zero check (and passed to the goroutine of the streamed run as a parameter), a struct
// error at the bound (built by MaxTurnsExceededErrorf, MaxTurnsExceededError{…} stored into
// the streamed result, &MaxTurnsExceeded{…}), and the trace id minted in the tracing
// provider (uuid, or crypto/rand bytes in hex).
func TestRunnerPorts(t *testing.T) {
	res := recognizeShapes(t)
	if e := entry(res, "tracing.WithTrace"); e != nil {
		t.Errorf("tracing.WithTrace runs whatever callback it is handed: not an entry, got %+v", e.Loops)
	}
	// a REPL reading lines from a reader its caller makes over os.Stdin, running the run entry
	// RunInputs once per line: a session driver, and so is the function handing it os.Stdin;
	// the runner's methods stay the entries
	for _, name := range []string{"agents.RunDemoLoop", "agents.RunDemoLoopRW"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: a session driver is no run entry, got %+v", name, e.Loops)
		}
	}
	for _, name := range []string{"agents.RunInputs", "agents.RunInputsStreamed"} {
		if e := entry(res, name); e == nil || len(e.Loops) != 1 {
			t.Errorf("%s: want a run entry with one loop, got %+v", name, e)
		}
	}
	type want struct {
		loop        string // file:line
		bound       string // "" = maxTurns
		def, defPos string
		onBound     string // kind stop_reason file:line
		model       string // file:line of the call site (its via must reach Model.GetResponse)
		tool        string
		parallel    bool
		exits       map[string]string // file:line → outcome (stop reason)
		ids         []string
	}
	runExits := map[string]string{"run.go:102": "not_started", "run.go:117": "failed (max_turns)", "run.go:128": "failed (error)",
		"run.go:134": "failed (error)", "run.go:141": "completed (goal_reached)", "run.go:146": "failed (error)"}
	run := want{loop: "run.go:114", def: "10", defPos: "constants.go:4", onBound: "error max_turns run.go:117",
		model: "run.go:166", tool: "runimpl.go:128", parallel: true, exits: runExits, ids: []string{"minted tracing.go:30"}}
	// the package-level Run hands the run on to the default runner: return
	// DefaultRunner.Run(…), the runner's outcome (propagated)
	runTop := run
	runTop.exits = map[string]string{"run.go:96": "propagated"}
	for k, v := range runExits {
		runTop.exits[k] = v
	}
	tests := map[string]want{
		"agents.Run":        runTop,
		"agents.Runner.Run": run,
		// the streamed run: only started by the entry, its facts are the goroutine's
		"agents.Runner.RunStreamed": {loop: "streaming.go:44", def: "10", defPos: "constants.go:4", onBound: "error max_turns streaming.go:48",
			model: "run.go:166", tool: "runimpl.go:128", parallel: true,
			exits: map[string]string{"streaming.go:28": "not_started", "streaming.go:36": "started", "streaming.go:48": "failed (max_turns)"}},
		"seq.Runner.Run": {loop: "seq.go:37", def: "10", defPos: "constants.go:4", onBound: "error max_turns seq.go:40",
			model: "seq.go:42", tool: "seq.go:81", parallel: false,
			exits: map[string]string{"seq.go:40": "failed (max_turns)", "seq.go:44": "failed (error)", "seq.go:62": "completed (goal_reached)", "seq.go:66": "failed (error)"},
			ids:   []string{"minted tracing.go:30"}},
		// the loop closure kept in a variable and handed to the runner's own tracing method
		// (which mints a trace id from crypto/rand), a cancellation check returning ctx.Err(),
		// tools in go func literals sending their results over a channel
		"variant.Runner.Run": {loop: "variant.go:63", bound: "limit", def: "8", defPos: "variant.go:21", onBound: "error max_turns variant.go:65",
			model: "variant.go:70", tool: "variant.go:129", parallel: true,
			exits: map[string]string{"variant.go:65": "failed (max_turns)", "variant.go:68": "cancelled (cancelled)", "variant.go:72": "failed (error)",
				"variant.go:84": "completed (goal_reached)", "variant.go:88": "failed (error)", "variant.go:96": "completed (goal_reached)"},
			ids: []string{"minted tracing.go:30", "minted variant.go:46"}},
	}
	// a streamed run started by a go func literal running Run: the entry's own return only
	// starts it
	if e := entry(res, "variant.Runner.RunStreamed"); e == nil {
		t.Errorf("variant.Runner.RunStreamed: no entry")
	} else {
		got := map[int]string{}
		for _, x := range e.Exits {
			got[x.Pos.Line] = x.Outcome
		}
		if got[155] != model.OutcomeNotStarted || got[162] != model.OutcomeStarted {
			t.Errorf("variant.Runner.RunStreamed exits %v, want not_started at 155, started at 162", got)
		}
	}
	at := func(p model.Position) string { return fmt.Sprintf("%s:%d", filepath.Base(p.File), p.Line) }
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			e := entry(res, name)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want one entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			if at(l.Pos) != w.loop {
				t.Errorf("loop at %s, want %s", at(l.Pos), w.loop)
			}
			if w.bound == "" {
				w.bound = "maxTurns"
			}
			if l.Bound == nil || l.Bound.Expr != w.bound || l.Bound.Default != w.def || at(l.Bound.DefaultPos) != w.defPos {
				t.Errorf("bound %+v, want %s default %s at %s", l.Bound, w.bound, w.def, w.defPos)
			}
			if ob := l.OnBound; ob == nil || fmt.Sprintf("%s %s %s", ob.Kind, ob.StopReason, at(ob.Pos)) != w.onBound {
				t.Errorf("at bound %+v, want %s", l.OnBound, w.onBound)
			}
			if len(l.ModelCalls) != 1 || at(l.ModelCalls[0].Pos) != w.model ||
				!slices.Contains(append([]string{l.ModelCalls[0].Callee}, l.ModelCalls[0].Via...), "agents.Model.GetResponse") {
				t.Errorf("model calls %+v, want %s via agents.Model.GetResponse", l.ModelCalls, w.model)
			}
			if len(l.ToolCalls) != 1 || at(l.ToolCalls[0].Pos) != w.tool || l.ToolCalls[0].Parallel != w.parallel || l.ParallelTools != w.parallel {
				t.Errorf("tool calls %+v (parallel %v), want %s parallel=%v", l.ToolCalls, l.ParallelTools, w.tool, w.parallel)
			}
			got := map[string]string{}
			for _, x := range e.Exits {
				o := x.Outcome
				if x.StopReason != "" {
					o += " (" + string(x.StopReason) + ")"
				}
				got[at(x.Pos)] = o
			}
			if fmt.Sprint(got) != fmt.Sprint(w.exits) {
				t.Errorf("exits %v, want %v", got, w.exits)
			}
			var ids []string
			for _, s := range e.IDs {
				ids = append(ids, fmt.Sprintf("%s %s", s.Kind, at(s.Pos)))
			}
			if fmt.Sprint(ids) != fmt.Sprint(w.ids) && len(ids)+len(w.ids) > 0 {
				t.Errorf("ids %v, want %v", ids, w.ids)
			}
		})
	}
}
