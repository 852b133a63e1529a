package recognize_test

import (
	"strings"
	"testing"
)

// TestSupergraphNodes checks a graph library whose one node record type is shared by every
// node func it runs (shape supergraph, smallnest/langgraphgo@v0.5.0 graph/state_graph.go,
// graph/retry.go, graph/parallel.go, prebuilt/*.go): Node.Function holds each closure handed to
// AddNode by the prebuilt agents (ReAct, a second ReAct with options, reflection, supervisor,
// planning) and the bound Execute of each node wrapper (retry, timeout, circuit breaker, rate
// limit, parallel, map-reduce), 18 funcs in all, and six calls of node.Function run them (the
// engine's retry helper and the wrappers). The engine's superstep loop `for len(currentNodes) >
// 0` (state_graph.go:137, :130 upstream) is the turn loop of both ReAct agents: their model
// calls and the executor's tool call are reached through the goroutine per node and the retry
// helper's node.Function (state_graph.go:317, :310 upstream), no bound, no cancellation check
// (ctx.Done only in the retry backoff). Before, past 16 funcs the field's call was left
// unresolved and past 4 callers a node func was not taken for one: no entry at all.
func TestSupergraphNodes(t *testing.T) {
	res := recognizeGoShapes(t)
	for _, name := range []string{"graph.StateRunnable.Invoke", "graph.StateRunnable.InvokeWithConfig"} {
		e := entry(res, name)
		if e == nil {
			t.Fatalf("%s: want a run entry, got none", name)
		}
		found := false
		for _, l := range e.Loops {
			if !strings.HasSuffix(l.Pos.File, "supergraph/graph/state_graph.go") || l.Pos.Line != 137 {
				continue
			}
			found = true
			if got := siteLines(l.ModelCalls); got != "agents.go:72 react_agent.go:72" {
				t.Errorf("%s: model calls %s, want the two ReAct agents' agents.go:72 react_agent.go:72", name, got)
			}
			if got := siteLines(l.ToolCalls); got != "tool_executor.go:39" {
				t.Errorf("%s: tool calls %s, want the executor's tool.Call at tool_executor.go:39", name, got)
			}
			if l.Bound != nil || l.ChecksCancel || l.ParallelTools {
				t.Errorf("%s: bound %+v cancel %v parallel %v, want no bound, no cancellation check, sequential tools", name, l.Bound, l.ChecksCancel, l.ParallelTools)
			}
		}
		if !found {
			t.Fatalf("%s: want the superstep loop at state_graph.go:137, got %+v", name, e.Loops)
		}
		checkExits(t, e, map[int]string{159: "failed (error)", 181: "failed (error)", 215: "failed (error)", 253: "failed (error)", 268: "failed (error)", 304: "completed (goal_reached)"})
	}
	for _, l := range res.Loops {
		if strings.Contains(l.Map.Pos.File, "supergraph/") && !(strings.HasSuffix(l.Map.Pos.File, "state_graph.go") && l.Map.Pos.Line == 137) {
			t.Errorf("turn loop %s at %s:%d, want only the superstep loop (not the retry loops, not a range over nodes or tool calls)", l.Map.Func, l.Map.Pos.File, l.Map.Pos.Line)
		}
	}
}
