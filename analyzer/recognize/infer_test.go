package recognize_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestInferDeliveries checks turn loops whose model result arrives other than as a plain
// return value (a Next/Current stream accumulated into a message, a raw HTTP body decoded in a
// retry callback, a reply kept in a step-wise runner's state), and loops that are not turn
// loops although their body recurses or dispatches (a linked-list walk, a cursor drain).
func TestInferDeliveries(t *testing.T) {
	res := recognizeShapes(t)
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(describe(res))
	}
	for _, name := range []string{"walk.Transform", "walk.Neighborhood"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: not a turn loop, got entry with loops %+v", name, e.Loops)
		}
	}
	for _, l := range res.Loops {
		if l.Func.Pkg == "example.com/shapes/walk" {
			t.Errorf("invented turn loop %s at line %d", l.Map.Func, l.Map.Pos.Line)
		}
	}
	tests := []struct {
		entry      string
		loopLine   int
		modelLines []int // any of them
		toolLine   int
		parallel   bool
		bound      string
	}{
		{"accum.Agent.Run", 58, []int{59}, 92, false, "a.Max"},
		{"rawhttp.Client.Generate", 55, []int{63}, 100, false, "maxIterations"},
		{"stepper.Runner.RunToEnd", 107, []int{31, 97}, 85, true, ""},
		{"stepper.Runner.Each", 121, []int{31, 97}, 85, true, ""},
		// each streamed event handed to a helper that folds it into the reply and leaves on
		// an error event: the helper's test decides for the holder of the stream
		{"evhandler.Agent.Run", 51, []int{66}, 75, false, ""},
		// the counter captured by the retry closure: a fresh cell per iteration (Go 1.22)
		{"capturebound.Agent.Run", 36, []int{39}, 59, false, "maxIterations"},
		// the model's responses re-yielded by a wrapper iterator, dispatched in the body of the
		// step's range-over-func loop, the step's events drained by the turn loop: the result
		// is followed through yield into the bodies of the loops that drain it
		{"yieldsteps.Flow.Run", 57, []int{111}, 129, false, ""},
		// a responses-style union of output items told apart by a Type string, each function
		// call's tool looked up in a map of tool records and kept with its call in a plan a
		// later step runs through the record's func-valued field in goroutines; the turn loop
		// in a closure handed to a tracing wrapper switches on the kind of next step
		{"respitems.Runner.Run", 121, []int{143}, 179, true, "r.MaxTurns"},
		// a state graph: nodes are closures registered by name (AddNode) and run by the
		// engine's superstep loop through nodes[current]; the "agent" node returns the state
		// holding the model's reply, the conditional edge tests its tool calls, the "tools"
		// node runs each by name: the result is followed out of the stored node closure to the
		// engine's call of it
		{"graph.Runnable.Invoke", 66, []int{56}, 80, false, "r.RecursionLimit"},
		// one tool runner shared by a sequential loop and one that sends the calls to a
		// worker starting a WaitGroup.Go per call; a PrepareStep callback returning a context
		// before the model call is not the decision
		{"workerpool.Agent.Generate", 84, []int{85}, 66, false, ""},
		{"workerpool.Agent.Stream", 102, []int{113}, 66, true, ""},
		// bounded by how much the history the loop appends to has grown, or by the length of
		// the list of steps it records in a field
		{"lenbound.Agent.Run", 23, []int{24}, 35, false, "maxTurns"},
		{"lenbound.Agent.Steps", 44, []int{45}, 56, false, "a.MaxSteps"},
		// each streamed event folded into the message by a method replacing the whole
		// receiver (*m = …) from the event spilled to a local: the message holds the result
		{"wholeaccum.Runner.Run", 61, []int{62}, 88, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			e := entry(res, tt.entry)
			if e == nil || len(e.Loops) == 0 {
				t.Fatalf("want an entry with a loop, got %+v", e)
			}
			l := e.Loops[0]
			checkLoopSites(t, l, tt.loopLine, tt.modelLines, tt.toolLine, tt.parallel)
			if tt.bound != "" && (l.Bound == nil || l.Bound.Expr != tt.bound) {
				t.Errorf("bound %+v, want %s", l.Bound, tt.bound)
			}
		})
	}
	// the graph engine's exits: the step limit, a node's error, the END node reached
	if e := entry(res, "graph.Runnable.Invoke"); e != nil {
		want := map[int]string{68: "failed max_steps", 71: "cancelled cancelled", 75: "failed error", 79: "failed error", 88: "completed goal_reached"}
		got := map[int]string{}
		for _, x := range e.Exits {
			got[x.Pos.Line] = x.Outcome + " " + string(x.StopReason)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("graph.Runnable.Invoke exits %v, want %v", got, want)
		}
	}
	// the exits of a run whose loop is in a callback: what the callback returns
	e := entry(res, "respitems.Runner.Run")
	if e == nil || len(e.Loops) == 0 {
		return
	}
	if ob := e.Loops[0].OnBound; ob == nil || ob.Kind != "error" || ob.Pos.Line != 124 {
		t.Errorf("respitems at bound %+v, want the error at line 124", ob)
	}
	want := map[int]string{124: "failed max_turns", 128: "failed error", 134: "completed goal_reached"}
	got := map[int]string{}
	for _, x := range e.Exits {
		got[x.Pos.Line] = x.Outcome + " " + string(x.StopReason)
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("respitems exits %v, want %v", got, want)
	}
}

// TestTreeWalkers: walks over a tree or a graph — a Go syntax tree with handlers by node kind,
// a JSON schema of a dependency rewritten through a table of rewriters, a worklist over a
// graph with visitors by node kind — have every part of a turn's shape (a repeated call whose
// result is tested, elements dispatched by name to callables, their results fed into the next
// call) except the model: the repeated call is a child accessor, a part of what is walked.
// Nor is a range over a finite slice of stored messages that asks a helper for each one's tool
// calls and runs them, feeding nothing back, nor the poll loop around it (replay). None is a
// turn loop, and none makes a run entry.
func TestTreeWalkers(t *testing.T) {
	res := recognizeShapes(t)
	walkers := map[string]bool{"example.com/shapes/astwalk": true, "example.com/shapes/schemawalk": true,
		"example.com/shapes/jsonschema": true, "example.com/shapes/worklist": true, "example.com/shapes/replay": true}
	for _, l := range res.Loops {
		if walkers[l.Func.Pkg] {
			t.Errorf("invented turn loop %s %s at line %d: %v", l.Map.Kind, l.Map.Func, l.Map.Pos.Line, l.Map.Provenance.Evidence)
		}
	}
	for _, name := range []string{"astwalk.Walker.Walk", "schemawalk.Transformer.Transform", "worklist.Graph.Reach", "replay.Replayer.Serve"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: a tree walk, got an entry with loops %+v", name, e.Loops)
		}
	}
}

// TestUserSessions: a loop each iteration of which waits for a line the user types (a bufio
// reader or scanner over os.Stdin, fmt.Scanln) is a session the user ends, not a turn loop:
// the turn loop it runs (a bounded one in a helper) is the helper's, the helper is the run entry
// and the session that calls it once per input is no entry, and a one-step helper called from
// it makes no turn loop of the session.
func TestUserSessions(t *testing.T) {
	res := recognizeShapes(t)
	for _, l := range res.Loops {
		if l.Func.Pkg == "example.com/shapes/repl" && l.Func.Short != "repl.Agent.Turn" {
			t.Errorf("user session taken for a turn loop: %s at line %d", l.Map.Func, l.Map.Pos.Line)
		}
	}
	// the sessions run the exported Turn once per line: session drivers, not run entries; Turn
	// is the run entry of the bounded loop
	for _, name := range []string{"repl.Agent.Chat", "repl.Agent.Scan"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: a session calling the run entry once per input is no run entry, got %+v", name, e.Loops)
		}
	}
	if e := entry(res, "repl.Agent.Turn"); e == nil || len(e.Loops) != 1 || e.Loops[0].Bound == nil || e.Loops[0].Bound.Expr != "8" {
		t.Errorf("repl.Agent.Turn: want the bounded turn loop, got %+v", e)
	}
}

// TestInMemoryBuilders: a recursion through a schema compiler's sources (a constructor that
// records where to load from, a reference parsed from a string) and a plan expander's loop
// around a plan built from the handlers' results have the whole shape of a turn but the model:
// the repeated call builds its result in memory from its operands. Neither is a turn loop nor
// an entry (a recursive JSON-schema compiler in a dependency was taken for a turn loop around
// a model call).
func TestInMemoryBuilders(t *testing.T) {
	res := recognizeShapes(t)
	for _, l := range res.Loops {
		if l.Func.Pkg == "example.com/shapes/loaders" {
			t.Errorf("invented turn loop %s %s at line %d: %v", l.Map.Kind, l.Map.Func, l.Map.Pos.Line, l.Map.Provenance.Evidence)
		}
	}
	for _, name := range []string{"loaders.Compiler.Compile", "loaders.Expander.Expand"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: builds in memory, got an entry with loops %+v", name, e.Loops)
		}
	}
}

// TestSideGoroutines: tools run one after another in a range over the tool calls are
// sequential whatever other goroutines the function starts (a spinner, a watcher of the
// context, a printer of the events, one goroutine a step running the step's tools in order);
// tools started one goroutine per call, or handed to a pool of workers, whose results are
// gathered, are parallel.
func TestSideGoroutines(t *testing.T) {
	res := recognizeShapes(t)
	for name, want := range map[string]bool{
		"sidegoroutine.Agent.Spinner": false, "sidegoroutine.Agent.Reported": false,
		"sidegoroutine.Runner.Run": false, "sidegoroutine.Runner.Stream": false,
		"sidegoroutine.Agent.PerStep":  false,
		"sidegoroutine.Agent.Parallel": true, "sidegoroutine.Agent.Pool": true,
	} {
		e := entry(res, name)
		if e == nil || len(e.Loops) != 1 || len(e.Loops[0].ToolCalls) == 0 {
			t.Errorf("%s: want one turn loop with tool calls, got %+v", name, e)
			continue
		}
		if got := e.Loops[0].ParallelTools; got != want {
			t.Errorf("%s: parallel tools %v, want %v", name, got, want)
		}
	}
}

// checkLoopSites checks a turn loop's line, that it has model calls and each is on one of
// modelLines, that one of its tool calls is on toolLine, and whether tools run in parallel.
func checkLoopSites(t *testing.T, l model.Loop, loopLine int, modelLines []int, toolLine int, parallel bool) {
	t.Helper()
	if l.Pos.Line != loopLine {
		t.Errorf("loop at line %d, want %d", l.Pos.Line, loopLine)
	}
	if len(l.ModelCalls) == 0 {
		t.Errorf("no model call")
	}
	for _, m := range l.ModelCalls {
		ok := false
		for _, w := range modelLines {
			ok = ok || m.Pos.Line == w
		}
		if !ok {
			t.Errorf("model call %s at line %d, want one of %v", m.Callee, m.Pos.Line, modelLines)
		}
	}
	found := false
	for _, tc := range l.ToolCalls {
		found = found || tc.Pos.Line == toolLine
	}
	if !found {
		t.Errorf("tool calls %+v, want line %d", l.ToolCalls, toolLine)
	}
	if l.ParallelTools != parallel {
		t.Errorf("parallel tools %v, want %v", l.ParallelTools, parallel)
	}
}
