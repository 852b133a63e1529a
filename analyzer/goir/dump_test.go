package goir_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"golang.org/x/tools/go/packages"
)

func summary(prog *ir.Program, pkg string) string {
	s := ""
	for _, f := range prog.Funcs {
		if f.Pkg != pkg || f.Pos.Line == 0 {
			continue
		}
		s += fmt.Sprintf("func %s exported=%v via=%s launch=%s parentloops=%v bodyof=%d\n", f.Short, f.Exported, f.ExportedVia, f.Launch, f.ParentLoops, f.BodyOf)
		for _, l := range f.Loops {
			s += fmt.Sprintf("  loop %d %s line %d outer %d overcall %d\n", l.ID, l.Kind, l.Pos.Line, l.Outer, l.OverCall)
		}
		for _, c := range f.Calls {
			if c.Flow == nil && len(c.Loops) == 0 {
				continue
			}
			s += fmt.Sprintf("  call %d line %d %s loops=%v conc=%s dom=%v rec=%v targets=%v\n", c.ID, c.Pos.Line, c.Text, c.Loops, c.Concurrent, c.Dominates, c.Recursive, c.Targets)
			if fl := c.Flow; fl != nil {
				s += fmt.Sprintf("    flow %s checked=%d iter=%d feeds=%v\n", fl.Delivery, len(fl.Checked), len(fl.Iterated), fl.FeedsNext)
				for _, ch := range fl.Checked {
					s += fmt.Sprintf("      check line %d %q leaves=%v ret=%d func=%d\n", ch.Pos.Line, ch.Text, ch.Leaves, ch.Return, ch.Func)
				}
				for _, d := range fl.Dispatch {
					s += fmt.Sprintf("      dispatch %s line %d calls=%v\n", d.How, d.Pos.Line, d.Calls)
				}
			}
		}
		for _, b := range f.Branches {
			s += fmt.Sprintf("  branch line %d %q loop=%d bound=%+v opt=%v ret=%d stop=%q at=%d\n", b.Pos.Line, b.Text, b.Loop, b.Bound, b.Optional, b.Return, b.StopText, b.AtPos.Line)
		}
		for _, c := range f.Cancels {
			s += fmt.Sprintf("  cancel line %d %s %v\n", c.Pos.Line, c.Kind, c.Loops)
		}
		for i, r := range f.Returns {
			e := ""
			if r.Err != nil {
				e = string(r.Err.Kind) + ":" + r.Err.Key
			}
			s += fmt.Sprintf("  return %d line %d %q err=%s afterloops=%v inloop=%d\n", i, r.Pos.Line, r.Text, e, r.AfterLoops, r.InLoop)
		}
	}
	return s
}

func TestSummary(t *testing.T) {
	if os.Getenv("GOIR_SUM") == "" {
		t.Skip()
	}
	prog := load(t)
	for _, p := range filepath.SplitList(os.Getenv("GOIR_SUM")) {
		fmt.Print(summary(prog, "example.com/shapes/"+p))
	}
	for _, d := range prog.Defaults {
		fmt.Printf("default %s = %s line %d %s\n", d.Key, d.Value, d.Pos.Line, d.Via)
	}
}

func TestSummaryDir(t *testing.T) {
	dir, fn := os.Getenv("GOIR_DIR"), os.Getenv("GOIR_FUNC")
	if dir == "" {
		t.Skip()
	}
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: dir}, os.Getenv("GOIR_PKG"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := goir.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range prog.Funcs {
		if f.Short == fn {
			p := &ir.Program{Funcs: []*ir.Func{f}}
			fmt.Print(summary(p, f.Pkg))
		}
	}
}
