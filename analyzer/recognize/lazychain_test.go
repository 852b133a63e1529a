//go:build cgo

package recognize_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestLazyChain: shape lazychain, a response that runs the model only when it is consumed
// (its __iter__ / __aiter__ / [Symbol.asyncIterator] drains the provider's stream), a tool-call
// getter that forces it first (tool_calls() → _force() → list(self) or for x in self), and a
// chain that asks for the next response while the last one's tool calls, looked up by name,
// produce results: the loop tests those results, not a model result, and feeds them into the
// next response's prompt. The getter is the model call, the chain's loop the turn loop, its
// chain_limit an optional bound; the async twins run the tools as gathered tasks.
func TestLazyChain(t *testing.T) {
	for _, w := range []struct {
		dir, entry        string
		loop, model, tool int
		parallel          bool
		bound, def        string
		exits             map[int]string
		also              []string
	}{
		// chain_limit=10 of ChainResponse is dead: its one caller always passes chain_limit=…
		// if … is not None else self.chain_limit, a field that is None: unset, unlimited
		{dir: "py", entry: "chain.ChainResponse.responses", loop: 74, model: 46, tool: 53, bound: "self.chain_limit", def: "None",
			exits: map[int]string{78: "failed", 88: "completed"}, also: []string{"chain.ChainResponse.__iter__", "chain.ChainResponse.text"}},
		// llm==0.36's own lines: the iterator drains a generator helper whose stream is bound in
		// each branch of an isinstance test, the executor asks the getter only when handed no
		// list (if tool_calls_list is None: tests the argument, not the reply), and the chain
		// resumes pending calls before its loop
		{dir: "pyresume", entry: "chain.ChainResponse.responses", loop: 116, model: 46, tool: 53, bound: "self.chain_limit", def: "None",
			exits: map[int]string{120: "failed", 132: "completed"}},
		// no caller: the constructor's chain_limit=10 stands
		{dir: "pyasync", entry: "chain.AsyncChainResponse.responses", loop: 63, model: 40, tool: 44, parallel: true, bound: "self.chain_limit", def: "10",
			exits: map[int]string{67: "failed", 72: "completed"}},
		{dir: "ts", entry: "chain.ChainResponse.responses", loop: 48, model: 33, tool: 36, bound: "this.chainLimit",
			exits: map[int]string{52: "failed", 61: "completed"}},
		{dir: "js", entry: "chain.ChainResponse.responses", loop: 52, model: 34, tool: 37, parallel: true, bound: "this.chainLimit",
			exits: map[int]string{56: "failed", 66: "completed"}},
	} {
		t.Run(w.dir, func(t *testing.T) {
			res := recognizeSrc(t, filepath.Join("lazychain", w.dir))
			e := srcEntry(res, w.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want entry %s with one loop, got %+v", w.entry, res.Entries)
			}
			for _, a := range w.also {
				if srcEntry(res, a) == nil {
					t.Errorf("%s: no entry", a)
				}
			}
			l := e.Loops[0]
			if l.Kind != model.LoopFor || l.Pos.Line != w.loop {
				t.Errorf("loop %s at %d, want for at %d", l.Kind, l.Pos.Line, w.loop)
			}
			if ls := lines(l.ModelCalls); len(ls) != 1 || ls[0] != w.model {
				t.Errorf("model calls at %v, want %d", ls, w.model)
			} else if v := l.ModelCalls[0].Via; len(v) < 3 || !strings.HasSuffix(v[len(v)-1], ".model.execute") {
				t.Errorf("model call via %v, want the forcing method, the iterator method (and its generators) and the model's execute", v)
			}
			if ls := lines(l.ToolCalls); len(ls) != 1 || ls[0] != w.tool || l.ParallelTools != w.parallel {
				t.Errorf("tool calls at %v (parallel %v), want %d (parallel %v)", ls, l.ParallelTools, w.tool, w.parallel)
			}
			if l.Bound == nil || l.Bound.Expr != w.bound || !l.Bound.Optional || l.Bound.Default != w.def {
				t.Errorf("bound %+v, want optional %s default %q", l.Bound, w.bound, w.def)
			}
			wantExits(t, e, w.exits)
		})
	}
	t.Run("neg", func(t *testing.T) {
		// a lazily read page whose rows one function of the set transforms (no tool looked up
		// by name), and a plain iterator class
		res := recognizeSrc(t, filepath.Join("lazychain", "neg"))
		if len(res.Entries) != 0 || len(res.Loops) != 0 {
			t.Errorf("want no entries and no turn loops, got %+v / %d loops", res.Entries, len(res.Loops))
		}
	})
}
