package recognize_test

import (
	"fmt"
	"os"
	"testing"
)

// TestGenerics: the lifecycle inside generic code — a state graph whose state is a type
// parameter (nodes NodeFunc[S] in a map, a recursion limit from a config struct), an unbounded
// superstep engine running a generic Node[S] interface in goroutines and merging states
// through a method of the type parameter, ReAct agents built on both, a model call wrapped in
// Retry[T] and tool calls in Map[T, U], and an agent generic over its client and tool types.
// The bodies of generic functions and of methods of generic types are read once, and calls
// made in them resolve through the instantiations the program uses.
func TestGenerics(t *testing.T) {
	res := recognizeShapes(t)
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(describe(res))
	}
	tests := []struct {
		entry      string
		loopLine   int
		modelLines []int // any of them
		toolLine   int
		parallel   bool
		bound      string // "-" for no bound
		cancel     bool
		exits      map[int]string
	}{
		// the recursion limit comes from the Config the entry Invoke passes (default 25)
		{"stategraph.Runnable.InvokeWithConfig", 83, []int{82}, 68, false, "cfg.RecursionLimit", true,
			map[int]string{85: "failed max_steps", 88: "cancelled cancelled", 92: "failed error", 96: "failed error", 108: "completed goal_reached"}},
		{"stategraph.Runnable.Invoke", 83, []int{82}, 68, false, "cfg.RecursionLimit", true,
			map[int]string{77: "propagated ", 85: "failed max_steps", 88: "cancelled cancelled", 92: "failed error", 96: "failed error", 108: "completed goal_reached"}},
		// no bound and no cancellation check; the agent's nodes are its own (pregelagent), so
		// the reply is followed through the engine only: out of the NodeFunc[S] adapter, into
		// the results[i] slot the node's goroutine fills, through state.Merge(r) (a method of
		// the type parameter) to the routers and the next superstep's nodes. Every active node
		// runs in a goroutine of its own, but that fans the superstep's nodes out: the tools
		// node runs its calls one after the other (sequential, as in shape graphworklist)
		{"pregel.Graph.Run", 56, []int{59}, 80, false, "-", false,
			map[int]string{63: "failed error", 74: "failed error", 93: "completed goal_reached"}},
		{"genericretry.Agent.Run", 83, []int{85}, 95, false, "a.MaxSteps", false,
			map[int]string{88: "failed error", 91: "completed goal_reached", 103: "failed max_steps"}},
		{"genericretry.TypedAgent.Run", 116, []int{117}, 130, false, "a.Max", false,
			map[int]string{119: "failed error", 122: "completed goal_reached", 137: "failed max_steps"}},
	}
	for _, tt := range tests {
		t.Run(tt.entry, func(t *testing.T) {
			e := entry(res, tt.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want an entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			checkLoopSites(t, l, tt.loopLine, tt.modelLines, tt.toolLine, tt.parallel)
			switch {
			case tt.bound == "-" && l.Bound != nil:
				t.Errorf("bound %+v, want none", l.Bound)
			case tt.bound != "-" && (l.Bound == nil || l.Bound.Expr != tt.bound):
				t.Errorf("bound %+v, want %s", l.Bound, tt.bound)
			}
			if l.ChecksCancel != tt.cancel {
				t.Errorf("checks cancel %v, want %v", l.ChecksCancel, tt.cancel)
			}
			got := map[int]string{}
			for _, x := range e.Exits {
				got[x.Pos.Line] = x.Outcome + " " + string(x.StopReason)
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.exits) {
				t.Errorf("exits %v, want %v", got, tt.exits)
			}
		})
	}
	// the retry helper's loop repeats one model call: not a turn loop, and Map is no entry
	for _, l := range res.Loops {
		if l.Func.Short == "genericretry.Retry" || l.Func.Short == "genericretry.Map" {
			t.Errorf("%s: a helper's loop taken for a turn loop at line %d", l.Func.Short, l.Map.Pos.Line)
		}
	}
}
