package goir_test

import (
	"slices"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

// TestDynamicCallees: the callees of calls through func values come from the VTA call graph —
// a func field holding a bound method value, the iterator a call returns — while a call of an
// iterator body's yield (handing an item to the loop that drains it) calls nothing here.
func TestDynamicCallees(t *testing.T) {
	prog := load(t)
	names := func(c *ir.Call) []string {
		var out []string
		for _, id := range c.Targets {
			out = append(out, prog.Funcs[id].Name)
		}
		return out
	}
	var do *ir.Func
	for _, f := range prog.Funcs {
		if f.Name == "(*example.com/shapes/seqflow.worker).Do$1" {
			do = f
		}
	}
	if do == nil {
		t.Fatal("no seqflow.worker.Do closure")
	}
	tests := []struct {
		text, want string
	}{
		{"w.body(ctx, prompt)", "(*example.com/shapes/seqflow.Loop).Steps"},
		{"", "(*example.com/shapes/seqflow.Loop).Steps$1"}, // the range over the iterator
	}
	for _, tt := range tests {
		found := false
		for i := range do.Calls {
			c := &do.Calls[i]
			if c.Text == tt.text && slices.Contains(names(c), tt.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("no call %q of %s in %s", tt.text, tt.want, do.Name)
		}
	}
	for _, f := range prog.Funcs {
		if f.Name != "(*example.com/shapes/seqflow.Loop).Steps$1" && f.Name != "(*example.com/shapes/seqflow.worker).Do$1$1" {
			continue
		}
		for _, c := range f.Calls {
			if c.Method == "yield" && len(c.Targets) > 0 {
				t.Errorf("%s: yield at line %d calls %v", f.Name, c.Pos.Line, names(&c))
			}
		}
	}
	if l := find(t, prog, "seqflow.Loop.Steps (closure)"); l.Launch != "return" {
		t.Errorf("the iterator closure Steps returns: launch %q, want return", l.Launch)
	}
}
