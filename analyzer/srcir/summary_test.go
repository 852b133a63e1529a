//go:build cgo

package srcir

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
)

func summary(f *ir.Func) string {
	s := fmt.Sprintf("func %d %s key=%s exported=%v launch=%s parent=%d parentloops=%v results=%v params=%v\n", f.ID, f.Short, f.Key, f.Exported, f.Launch, f.Parent, f.ParentLoops, f.Results, f.Params)
	for _, l := range f.Loops {
		s += fmt.Sprintf("  loop %d %s line %d outer %d overcall %d cond=%q over=%q\n", l.ID, l.Kind, l.Pos.Line, l.Outer, l.OverCall, l.Cond, l.Over)
	}
	for _, c := range f.Calls {
		s += fmt.Sprintf("  call %d line %d %s loops=%v conc=%s dom=%v rec=%v targets=%v callees=%v argf=%v\n", c.ID, c.Pos.Line, c.Text, c.Loops, c.Concurrent, c.Dominates, c.Recursive, c.Targets, c.Callees, c.ArgFuncs)
		if fl := c.Flow; fl != nil {
			s += fmt.Sprintf("    flow %s checked=%d iter=%d feeds=%v fields=%v\n", fl.Delivery, len(fl.Checked), len(fl.Iterated), fl.FeedsNext, fl.Fields)
			for _, ch := range fl.Checked {
				s += fmt.Sprintf("      check line %d %q leaves=%v ret=%d func=%d\n", ch.Pos.Line, ch.Text, ch.Leaves, ch.Return, ch.Func)
			}
			for _, d := range fl.Dispatch {
				s += fmt.Sprintf("      dispatch %s line %d calls=%v\n", d.How, d.Pos.Line, d.Calls)
			}
		}
	}
	for _, b := range f.Branches {
		s += fmt.Sprintf("  branch line %d %q loop=%d incond=%v bound=%+v opt=%v ret=%d stop=%q at=%d\n", b.Pos.Line, b.Text, b.Loop, b.InCond, b.Bound, b.Optional, b.Return, b.StopText, b.AtPos.Line)
	}
	for _, c := range f.Cancels {
		s += fmt.Sprintf("  cancel line %d %s %v\n", c.Pos.Line, c.Kind, c.Loops)
	}
	for i, r := range f.Returns {
		e := ""
		if r.Err != nil {
			e = string(r.Err.Kind) + ":" + r.Err.Key
		}
		s += fmt.Sprintf("  return %d line %d %q err=%s inloop=%d\n", i, r.Pos.Line, r.Text, e, r.InLoop)
	}
	return s
}

// TestSummary prints the IR of the functions named by SRCIR_FUNC (substrings of Short,
// comma-separated) in SRCIR_DIR: a debugging aid, skipped otherwise.
func TestSummary(t *testing.T) {
	dir := os.Getenv("SRCIR_DIR")
	if dir == "" {
		t.Skip("set SRCIR_DIR and SRCIR_FUNC")
	}
	prog, diags := buildDir(t, dir)
	for _, d := range diags {
		fmt.Println(d)
	}
	for _, f := range prog.Funcs {
		for _, want := range strings.Split(os.Getenv("SRCIR_FUNC"), ",") {
			if want != "" && strings.Contains(f.Short, want) {
				fmt.Print(summary(f))
			}
		}
	}
}
