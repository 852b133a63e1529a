//go:build cgo

package recognize_test

import (
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestOneExecutor: shape oneexec, a loop whose model reply's actions all go to one executor
// (outputs = [self.env.execute(action) for action in response["actions"]], results.push(await
// this.executor.run(call))) with no lookup by name, the executor's results appended to the
// conversation the next model call receives. The data flow's back edge through the executor
// makes it the tool call; the same executor over a finite list, or over a source's pages
// whose results never go back to the source, is no turn loop.
func TestOneExecutor(t *testing.T) {
	for _, w := range []struct {
		dir, entry        string
		loop, model, tool int
		parallel          bool
		bound, def        string
		exits             map[int]string
	}{
		{dir: "py", entry: "agent.Agent.run", loop: 10, model: 11, tool: 15, bound: "self.max_steps", def: "20",
			exits: map[int]string{14: "completed", 18: "failed"}},
		// mini-swe-agent==2.4.6: the step is a helper, the outputs go back into the shared
		// messages through the model's formatting helper, the loop leaves on the last
		// message's role; of the limits tested together in the query helper the one whose
		// default is set (cost_limit 3.0; step_limit 0 is off); the format-error counter the
		// loop resets after each clean step is no bound
		{dir: "pystate", entry: "agent.DefaultAgent.run", loop: 57, model: 76, tool: 88, bound: "self.config.cost_limit", def: "3.0"},
		{dir: "ts", entry: "agent.Agent.run", loop: 7, model: 8, tool: 15, bound: "this.maxTurns", def: "8",
			exits: map[int]string{11: "completed", 19: "failed"}},
		// compiled: tool calls mapped to the executor under Promise.all, in parallel
		{dir: "js", entry: "agent.Agent.run", loop: 13, model: 14, tool: 19, parallel: true, bound: "this.maxTurns", def: "8",
			exits: map[int]string{17: "completed", 22: "failed"}},
	} {
		t.Run(w.dir, func(t *testing.T) {
			res := recognizeSrc(t, filepath.Join("oneexec", w.dir))
			e := srcEntry(res, w.entry)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want entry %s with one loop, got %+v", w.entry, res.Entries)
			}
			l := e.Loops[0]
			if l.Kind != model.LoopFor || l.Pos.Line != w.loop {
				t.Errorf("loop %s at %d, want for at %d", l.Kind, l.Pos.Line, w.loop)
			}
			if ls := lines(l.ModelCalls); len(ls) != 1 || ls[0] != w.model {
				t.Errorf("model calls at %v, want %d", ls, w.model)
			}
			if ls := lines(l.ToolCalls); len(ls) != 1 || ls[0] != w.tool || l.ParallelTools != w.parallel {
				t.Errorf("tool calls at %v (parallel %v), want %d (parallel %v)", ls, l.ParallelTools, w.tool, w.parallel)
			}
			if l.Bound == nil || l.Bound.Expr != w.bound || l.Bound.Default != w.def {
				t.Errorf("bound %+v, want %s default %s", l.Bound, w.bound, w.def)
			}
			wantExits(t, e, w.exits)
		})
	}
	t.Run("neg", func(t *testing.T) {
		res := recognizeSrc(t, filepath.Join("oneexec", "neg"))
		if len(res.Entries) != 0 || len(res.Loops) != 0 {
			t.Errorf("want no entries and no turn loops, got %+v / %d loops", res.Entries, len(res.Loops))
		}
	})
}
