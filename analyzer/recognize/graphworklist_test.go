package recognize_test

import (
	"fmt"
	"os"
	"testing"
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
		t.Run(tt.entry, func(t *testing.T) {
			e := entry(res, tt.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want an entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			if l.Pos.Line != tt.loopLine || l.Func != "graph.StateRunnable.InvokeWithConfig" {
				t.Errorf("loop %s at line %d, want the superstep loop at line %d", l.Func, l.Pos.Line, tt.loopLine)
			}
			if len(l.ModelCalls) != 1 || l.ModelCalls[0].Pos.Line != tt.modelLine {
				t.Errorf("model calls %+v, want line %d", l.ModelCalls, tt.modelLine)
			}
			if len(l.ToolCalls) != 1 || l.ToolCalls[0].Pos.Line != tt.toolLn || l.ToolCalls[0].Parallel {
				t.Errorf("tool calls %+v, want one sequential at line %d", l.ToolCalls, tt.toolLn)
			}
			if l.ParallelTools {
				t.Errorf("parallel tools: the goroutines run graph nodes, the tools node runs its calls in turn")
			}
			if l.Bound != nil {
				t.Errorf("bound %+v, want none", l.Bound)
			}
			if l.ChecksCancel {
				t.Errorf("checks cancellation, want not (the only ctx.Done is in the retry backoff)")
			}
			got := map[int]string{}
			for _, x := range e.Exits {
				got[x.Pos.Line] = x.Outcome + " " + string(x.StopReason)
			}
			if fmt.Sprint(got) != fmt.Sprint(exits) {
				t.Errorf("exits %v, want %v", got, exits)
			}
		})
	}
	for _, l := range res.Loops {
		if l.Func.Short == "graph.StateRunnable.executeNodeWithRetry" {
			t.Errorf("the node retry loop at line %d taken for a turn loop", l.Map.Pos.Line)
		}
	}
}
