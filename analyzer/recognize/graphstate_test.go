package recognize_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestGraphState: a LangGraph-style state graph on a generic bulk-synchronous engine
// (shapes/graphstate), where nodes never see each other's return values. The superstep loop
// `for len(st.frontier) > 0` of pregel.Runtime[S].Run runs each superstep through helpers and a
// worker pool (a worker loop `for { select { case task := <-tasks } }` calls a closure handed to
// the pool), the vertex adapter looks the node up by name in a map, wraps its func in
// middleware and runs it through a retry helper; the model node and the tools node are
// closures two constructors of another package make (NewModelNode, NewToolNode) and NewReAct
// registers, and the reply and the tool results travel through a state channel appended by a
// reducer at the superstep barrier, read back through a Scope interface. The engine's
// superstep loop is the turn loop, reached from the node's model call ten calls down; its
// bound is the superstep limit checked (with ctx.Err()) in a helper called first in every
// iteration, which returns the sentinel; the tools node's call runs sequentially; the retry
// helper's attempt loop and the worker loop are not turn loops. Graph.Stream hands the caller an
// iterator that runs the graph only when drained, through run middleware, an Executor
// interface and a goroutine: its return is propagated (the caller drains the run), not started.
func TestGraphState(t *testing.T) {
	res := recognizeShapes(t)
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(describe(res))
	}
	tests := []struct {
		entry string
		exits map[int]string
	}{
		{"graph.Graph.Run", map[int]string{210: "not_started ", 222: "failed error", 224: "completed goal_reached", 82: "failed max_steps"}},
		// Stream returns an iterator through run middleware, an executor interface and a
		// goroutine ten calls above the loop: nothing runs until the caller drains it
		{"graph.Graph.Stream", map[int]string{86: "propagated ", 73: "completed goal_reached", 82: "failed max_steps"}},
		// a superstep's error (a node's failure) ends the run: failed, as agentmesh's truth has
		// it (bench/corpus-go/agentmesh.truth.json am.runtime.x2, pkg/pregel/runtime.go:655);
		// the preconditions' error (the context or the bound) is what that helper decides
		{"pregel.Runtime.Run", map[int]string{67: "propagated ", 70: "failed error", 73: "completed goal_reached", 82: "failed max_steps"}},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			e := entry(res, tt.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want an entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			if l.Func != "pregel.Runtime.Run" || l.Pos.Line != 65 || !strings.HasSuffix(l.Pos.File, "graphstate/pregel/pregel.go") {
				t.Errorf("loop %s at %s:%d, want the superstep loop of pregel.Runtime.Run at pregel.go:65", l.Func, l.Pos.File, l.Pos.Line)
			}
			checkLoopSites(t, l, 65, []int{74}, 108, false)
			if len(l.ModelCalls) != 1 || !strings.HasSuffix(l.ModelCalls[0].Pos.File, "graphstate/prebuilt/react.go") {
				t.Errorf("model calls %+v, want the model node's m.Generate", l.ModelCalls)
			}
			if len(l.ToolCalls) != 1 || !strings.HasSuffix(l.ToolCalls[0].Pos.File, "graphstate/prebuilt/react.go") {
				t.Errorf("tool calls %+v, want only the executor's t.Call (not the engine's vctx.Send routing)", l.ToolCalls)
			}
			if l.Bound == nil || l.Bound.Expr != "r.opts.MaxSupersteps" || !l.Bound.Optional || l.Bound.Pos.Line != 81 {
				t.Errorf("bound %+v, want the optional r.opts.MaxSupersteps at line 81", l.Bound)
			}
			if l.OnBound == nil || l.OnBound.Kind != "error" || l.OnBound.StopReason != "max_steps" || l.OnBound.Pos.Line != 82 {
				t.Errorf("on bound %+v, want ErrMaxSupersteps (max_steps) at line 82", l.OnBound)
			}
			if !l.ChecksCancel || l.CancelPos.Line != 66 {
				t.Errorf("cancel %v at %d, want the preconditions call at line 66 (ctx.Err() first)", l.ChecksCancel, l.CancelPos.Line)
			}
			got := map[int]string{}
			for _, x := range e.Exits {
				got[x.Pos.Line] = x.Outcome + " " + string(x.StopReason)
				if x.Outcome == "completed" && tt.exits[x.Pos.Line] != got[x.Pos.Line] {
					t.Errorf("exit at line %d completes the run: %s", x.Pos.Line, got[x.Pos.Line])
				}
			}
			for line, want := range tt.exits {
				if got[line] != want {
					t.Errorf("exit at line %d: %q, want %q (all: %v)", line, got[line], want, got)
				}
			}
		})
	}
	for _, l := range res.Loops {
		switch l.Func.Short {
		case "graph.executeNodeWithRetry", "pregel.pool.loop", "pregel.newPool", "prebuilt.Executor.Execute":
			t.Errorf("%s: a helper's loop taken for a turn loop at line %d", l.Func.Short, l.Map.Pos.Line)
		}
	}
	for _, name := range []string{"prebuilt.NewReAct", "prebuilt.NewModelNode", "prebuilt.NewToolNode"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s builds the graph, it runs nothing: got entry %+v", name, e.Loops)
		}
	}
}
