package recognize_test

import (
	"fmt"
	"os"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/packages"
)

// TestGraphWorklist: a LangGraph-style engine whose superstep loop is a worklist of node names
// (for len(currentNodes) > 0), not a counter. Each superstep runs the current nodes in
// goroutines — a Node struct read from a map by name, its Function field run through a retry
// helper — gathers their results by index, merges them and picks the next nodes by calling the
// conditional edge funcs on the merged state. The model call and the tool calls live in
// closures a ReAct builder of another package registers as nodes. The superstep loop is the
// turn loop (no bound, no cancellation check), the retry helper's attempt loop is not, the
// tools node's calls stay sequential (the goroutines fan the nodes out, not the tool calls),
// every error return fails and the final return completes.
func TestGraphWorklist(t *testing.T) {
	res := recognizeShapes(t)
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(describe(res))
	}
	exits := map[int]string{136: "failed error", 149: "failed error", 168: "failed error", 174: "failed error",
		187: "failed error", 200: "failed error", 213: "completed goal_reached"}
	tests := []struct {
		entry                       string
		loopLine, modelLine, toolLn int
	}{
		{"graph.StateRunnable.InvokeWithConfig", 119, 99, 80},
		{"graph.StateRunnable.Invoke", 119, 99, 80},
	}
	for _, tt := range tests {
		checkWorklistEntry(t, res, tt.entry, tt.loopLine, tt.modelLine, tt.toolLn, invokeExits(tt.entry, exits))
	}
	for _, l := range res.Loops {
		if l.Func.Short == "graph.StateRunnable.executeNodeWithRetry" {
			t.Errorf("the node retry loop at line %d taken for a turn loop", l.Map.Pos.Line)
		}
	}
}

// TestGraphWorklistLangchaingo: the same engine (shapes/graphworklist/graph, through a replace)
// with a ReAct agent on langchaingo's llms.Model and tools.Tool, a dependency module the
// built-in langchaingo profile describes (a nested module of its own, testdata/graphlcgo): the
// profile confirms the model call, and the superstep loop, its sequential tool call and its
// exits are the same as with local interfaces (before, the goroutine per node made the
// profile's tool call parallel).
func TestGraphWorklistLangchaingo(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: "testdata/graphlcgo"}, "./...", "example.com/shapes/graphworklist/graph")
	if err != nil {
		t.Fatal(err)
	}
	if packages.PrintErrors(pkgs) > 0 {
		t.Fatal("testdata/graphlcgo does not load")
	}
	prog, err := goir.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	res := recognize.Recognize(prog, recognize.Options{Table: roles.NewTable(roles.Builtin()...)})
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(describe(res))
	}
	exits := map[int]string{136: "failed error", 149: "failed error", 168: "failed error", 174: "failed error",
		187: "failed error", 200: "failed error", 213: "completed goal_reached"}
	for _, name := range []string{"graph.StateRunnable.InvokeWithConfig", "graph.StateRunnable.Invoke"} {
		e := checkWorklistEntry(t, res, name, 119, 69, 40, invokeExits(name, exits))
		if e != nil && len(e.Loops) == 1 && len(e.Loops[0].ModelCalls) == 1 && e.Loops[0].ModelCalls[0].Provenance.Confidence != model.ConfidenceProfile {
			t.Errorf("%s: model call %+v, want it confirmed by the langchaingo profile", name, e.Loops[0].ModelCalls[0].Provenance)
		}
	}
}

// invokeExits are the exits of entry: Invoke adds its return InvokeWithConfig(…) (line 112),
// which hands back that run's outcome.
func invokeExits(entry string, exits map[int]string) map[int]string {
	if entry != "graph.StateRunnable.Invoke" {
		return exits
	}
	out := map[int]string{112: "propagated "}
	for k, v := range exits {
		out[k] = v
	}
	return out
}

// checkWorklistEntry checks an entry of a worklist graph engine: one loop, the superstep loop
// of InvokeWithConfig at loopLine, one model call, one sequential tool call, no bound, no
// cancellation check, and exactly the exits given.
func checkWorklistEntry(t *testing.T, res *recognize.Result, name string, loopLine, modelLine, toolLine int, exits map[int]string) *model.Entry {
	t.Helper()
	e := entry(res, name)
	if e == nil || len(e.Loops) != 1 {
		t.Errorf("%s: want an entry with one loop, got %+v", name, e)
		return e
	}
	l := e.Loops[0]
	if l.Pos.Line != loopLine || l.Func != "graph.StateRunnable.InvokeWithConfig" {
		t.Errorf("%s: loop %s at line %d, want the superstep loop at line %d", name, l.Func, l.Pos.Line, loopLine)
	}
	if len(l.ModelCalls) != 1 || l.ModelCalls[0].Pos.Line != modelLine {
		t.Errorf("%s: model calls %+v, want line %d", name, l.ModelCalls, modelLine)
	}
	if len(l.ToolCalls) != 1 || l.ToolCalls[0].Pos.Line != toolLine || l.ToolCalls[0].Parallel {
		t.Errorf("%s: tool calls %+v, want one sequential at line %d", name, l.ToolCalls, toolLine)
	}
	if l.ParallelTools {
		t.Errorf("%s: parallel tools: the goroutines run graph nodes, the tools node runs its calls in turn", name)
	}
	if l.Bound != nil {
		t.Errorf("%s: bound %+v, want none", name, l.Bound)
	}
	if l.ChecksCancel {
		t.Errorf("%s: checks cancellation, want not (the only ctx.Done is in the retry backoff)", name)
	}
	got := map[int]string{}
	for _, x := range e.Exits {
		got[x.Pos.Line] = x.Outcome + " " + string(x.StopReason)
	}
	if fmt.Sprint(got) != fmt.Sprint(exits) {
		t.Errorf("%s: exits %v, want %v", name, got, exits)
	}
	return e
}
