package goir_test

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

// flowOf returns the flow of the call at line in the function named short.
func find(t *testing.T, prog *ir.Program, short string) *ir.Func {
	t.Helper()
	for _, f := range prog.Funcs {
		if f.Short == short {
			return f
		}
	}
	t.Fatalf("no function %s", short)
	return nil
}

func callAt(f *ir.Func, line int) *ir.Call {
	for i := range f.Calls {
		if f.Calls[i].Pos.Line == line {
			return &f.Calls[i]
		}
	}
	return nil
}

func hasHow(fl *ir.Flow, how string) bool {
	for _, d := range fl.Dispatch {
		if d.How == how {
			return true
		}
	}
	return false
}

// TestShapes checks the data flow the recognizer keys on, on fixtures of each shape.
func TestShapes(t *testing.T) {
	prog := load(t)
	tests := []struct {
		fn       string
		line     int
		flow     bool   // the call's result shows the agent shape
		delivery string // how the result arrives
		how      string // a dispatch kind that must be found
	}{
		{"loopagent.Agent.Run", 45, true, "return", "map_lookup"},
		{"chanagent.Runner.Run", 28, true, "channel", "name_compare"},
		{"iteragent.agent.Ask", 28, true, "iterator", "name_switch"},
		{"statemachine.Machine.Drive", 40, true, "return", "map_lookup"},
		{"started.Session.loop", 35, true, "return", "map_lookup"},
		{"optagent.Executor.Execute", 29, true, "return", "map_lookup"},
		// tool calls sent on a channel field to a dispatcher goroutine, looked up there
		{"busagent.Agent.Solve", 93, true, "return", "map_lookup"},
		{"busagent.Worker.Do", 67, true, "return", "map_lookup"},
		// a text reply parsed into the next action, its verb switched on
		{"planner.Researcher.Run", 50, true, "return", "name_switch"},
		{"finite.Summarize", 14, false, "", ""},
		{"dbwrite.Archive", 18, false, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.fn, func(t *testing.T) {
			c := callAt(find(t, prog, tt.fn), tt.line)
			if c == nil {
				t.Fatalf("no call at line %d", tt.line)
			}
			if !tt.flow {
				if c.Flow != nil && len(c.Flow.Dispatch) > 0 {
					t.Fatalf("call %s: unexpected dispatch %+v", c.Text, c.Flow.Dispatch)
				}
				return
			}
			fl := c.Flow
			if fl == nil {
				t.Fatalf("call %s: no flow", c.Text)
			}
			if fl.Delivery != tt.delivery {
				t.Errorf("delivery %q, want %q", fl.Delivery, tt.delivery)
			}
			if len(fl.Checked) == 0 || !fl.Checked[0].Leaves {
				t.Errorf("no emptiness check that leaves: %+v", fl.Checked)
			}
			if !hasHow(fl, tt.how) {
				t.Errorf("no %s dispatch: %+v", tt.how, fl.Dispatch)
			}
			if !fl.FeedsNext {
				t.Errorf("tool results do not feed the next call")
			}
		})
	}
}

// TestCancelPaths: a check on every iteration's path counts, one inside a retry backoff does not.
func TestCancelPaths(t *testing.T) {
	prog := load(t)
	every := func(fn string, kind string) (seen, all bool) {
		for _, c := range find(t, prog, fn).Cancels {
			if c.Kind != kind {
				continue
			}
			for _, l := range c.Loops {
				seen = true
				all = all || l.EveryIteration
			}
		}
		return
	}
	if seen, all := every("backoff.Loop", "done"); !seen || all {
		t.Errorf("backoff.Loop: ctx.Done in the backoff: seen %v, every iteration %v; want seen, not every", seen, all)
	}
	if seen, all := every("started.Session.loop", "done"); !seen || !all {
		t.Errorf("started.Session.loop: select on ctx.Done each iteration: seen %v, every %v", seen, all)
	}
	if seen, all := every("loopagent.Agent.Run", "err"); !seen || !all {
		t.Errorf("loopagent.Agent.Run: ctx.Err at the top of the loop: seen %v, every %v", seen, all)
	}
	// a select on ctx.Done in the wait for each tool result, after the final answer left on
	// no tool calls: on every iteration of the turn loop that goes on, not only of the wait
	for _, fn := range []string{"busagent.Agent.Solve", "busagent.Worker.Do"} {
		n := 0
		for _, c := range find(t, prog, fn).Cancels {
			if c.Kind != "done" {
				continue
			}
			for _, l := range c.Loops {
				n++
				if !l.EveryIteration {
					t.Errorf("%s: ctx.Done at line %d not on every iteration of loop %d", fn, c.Pos.Line, l.Loop)
				}
			}
		}
		if n != 2 {
			t.Errorf("%s: ctx.Done in %d loops, want the wait and the turn loop", fn, n)
		}
	}
}

// TestBranchesAndDefaults: body counters, optional limits, defaults in another package.
func TestBranchesAndDefaults(t *testing.T) {
	prog := load(t)
	var opt *ir.Branch
	for i, b := range find(t, prog, "optagent.Executor.Execute").Branches {
		if strings.Contains(b.Text, "MaxIterations") {
			opt = &find(t, prog, "optagent.Executor.Execute").Branches[i]
		}
	}
	if opt == nil || !opt.Optional || opt.Bound.Key != "example.com/shapes/opts.Options.MaxIterations" {
		t.Errorf("optagent bound: %+v", opt)
	}
	sm := find(t, prog, "statemachine.Machine.exceeded").Branches
	if len(sm) != 1 || sm[0].StopText != "max_steps" || sm[0].Bound.Kind != "field" {
		t.Errorf("statemachine helper bound: %+v", sm)
	}
	var def *ir.Default
	for i, d := range prog.Defaults {
		if d.Key == "example.com/shapes/opts.Options.MaxIterations" {
			def = &prog.Defaults[i]
		}
	}
	if def == nil || def.Value != "10" || def.Via != "const" || !strings.HasSuffix(def.Pos.File, "opts/opts.go") || def.Pos.Line != 5 {
		t.Errorf("default of MaxIterations: %+v", def)
	}
	rets := find(t, prog, "iteragent.agent.Ask").Returns
	kinds := map[int]ir.ValueKind{}
	for _, r := range rets {
		if r.Err != nil {
			kinds[r.Pos.Line] = r.Err.Kind
		}
	}
	if kinds[36] != ir.ValNil || kinds[45] != ir.ValError {
		t.Errorf("returns through a range-over-func body: %v", kinds)
	}
}

// TestLoopKinds: a walk down a linked list (for x := first(); x != nil; x = x.Next()) and the
// drain of a cursor a call returned (for rows.Next()) run over a finite collection or a
// stream, and a worker claiming the next index of a slice from an atomic counter runs over the
// slice, not a turn loop's "for".
func TestLoopKinds(t *testing.T) {
	prog := load(t)
	tests := []struct {
		fn   string
		line int
		kind ir.LoopKind
	}{
		{"walk.Transform", 39, ir.LoopRangeList},
		{"walk.Neighborhood", 98, ir.LoopRangeIter},
		{"accum.Agent.Run", 58, ir.LoopFor},
		{"accum.Agent.Run", 61, ir.LoopRangeIter},
		{"statemachine.Machine.Drive", 35, ir.LoopFor},
		{"walk.TransformAll (closure)", 17, ir.LoopRangeList},
	}
	for _, tt := range tests {
		f := find(t, prog, tt.fn)
		var got *ir.Loop
		for i := range f.Loops {
			if f.Loops[i].Pos.Line == tt.line {
				got = &f.Loops[i]
			}
		}
		if got == nil {
			t.Errorf("%s: no loop at line %d", tt.fn, tt.line)
			continue
		}
		if got.Kind != tt.kind {
			t.Errorf("%s:%d: loop kind %s, want %s", tt.fn, tt.line, got.Kind, tt.kind)
		}
		if tt.kind != ir.LoopFor && got.OverCall < 0 && got.Over == "" {
			t.Errorf("%s:%d: no call the loop runs over", tt.fn, tt.line)
		}
	}
}

// TestNameLookup: a name handed alone to a lookup (repo.Get(name) of an interface implemented
// elsewhere) selects a record, not a tool: no dispatch runs it; a name handed with the tool
// call's arguments (tools.Run(ctx, name, args)) runs the tool it names.
func TestNameLookup(t *testing.T) {
	prog := load(t)
	b := find(t, prog, "namelookup.Builder.Build")
	c := callAt(b, 46)
	if c == nil {
		t.Fatalf("no call at line 46 of %s", b.Short)
	}
	if c.Flow != nil {
		for _, d := range c.Flow.Dispatch {
			if len(d.Calls) > 0 {
				t.Errorf("b.loaded(keys): the lookup %q runs no tool, got dispatch %s with calls %v", d.Text, d.How, d.Calls)
			}
		}
	}
	a := find(t, prog, "namelookup.Agent.Run")
	c = callAt(a, 25)
	if c == nil || c.Flow == nil || !hasHow(c.Flow, "name_arg") {
		t.Fatalf("a.client.Chat: want a name_arg dispatch to tools.Run, got %+v", c)
	}
}

// TestDescends: a call handing over a part of a parameter of its own kind descends (a wrapper
// delegating to the tool it wraps, a tree walk's children); a recursion on fresh state does not.
func TestDescends(t *testing.T) {
	prog := load(t)
	for _, tt := range []struct {
		fn   string
		line int
		want bool
	}{
		{"wrapper.Named.Call", 22, true},
		{"wrapper.Sum", 36, true},
		{"wrapper.Step", 45, false},
	} {
		c := callAt(find(t, prog, tt.fn), tt.line)
		if c == nil {
			t.Fatalf("%s: no call at line %d", tt.fn, tt.line)
		}
		if c.Descends != tt.want {
			t.Errorf("%s line %d %s: descends %v, want %v", tt.fn, tt.line, c.Text, c.Descends, tt.want)
		}
	}
}
