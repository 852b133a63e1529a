//go:build cgo

package srcir

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func buildDir(t *testing.T, dir string) (*ir.Program, []Diag) {
	t.Helper()
	files, err := Collect([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	prog, diags, err := BuildFiles(files)
	if err != nil {
		t.Fatal(err)
	}
	return prog, diags
}

// relProgram rewrites absolute file names to testdata-relative ones for golden files.
func relProgram(t *testing.T, prog *ir.Program) []byte {
	t.Helper()
	data, err := json.MarshalIndent(prog, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("testdata")
	return bytes.ReplaceAll(data, []byte(abs+string(filepath.Separator)), nil)
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (run go test -update and review the diff):\n%s", name, firstDiff(string(want), string(got)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) || i < len(bl); i++ {
		var x, y string
		if i < len(al) {
			x = al[i]
		}
		if i < len(bl) {
			y = bl[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n- %s\n+ %s", i+1, x, y)
		}
	}
	return ""
}

func describe(res *recognize.Result, rel func(string) string) string {
	var b strings.Builder
	for _, e := range res.Entries {
		fmt.Fprintf(&b, "entry %s %s:%d\n", e.Func, rel(e.Pos.File), e.Pos.Line)
		for _, l := range e.Loops {
			fmt.Fprintf(&b, "  loop %s %s line %d\n", l.Kind, l.Func, l.Pos.Line)
			if l.Bound != nil {
				fmt.Fprintf(&b, "    bound %s default %s@%s:%d optional=%v line %d\n", l.Bound.Expr, l.Bound.Default, rel(l.Bound.DefaultPos.File), l.Bound.DefaultPos.Line, l.Bound.Optional, l.Bound.Pos.Line)
			}
			if l.OnBound != nil {
				fmt.Fprintf(&b, "    at bound %s %s %s line %d\n", l.OnBound.Kind, l.OnBound.Value, l.OnBound.StopReason, l.OnBound.Pos.Line)
			}
			fmt.Fprintf(&b, "    cancel %v line %d\n", l.ChecksCancel, l.CancelPos.Line)
			for _, m := range l.ModelCalls {
				fmt.Fprintf(&b, "    model %s %s:%d\n", m.Callee, rel(m.Pos.File), m.Pos.Line)
			}
			for _, m := range l.ToolCalls {
				fmt.Fprintf(&b, "    tool %s %s:%d parallel=%v\n", m.Callee, rel(m.Pos.File), m.Pos.Line, m.Parallel)
			}
		}
		for _, x := range e.Exits {
			fmt.Fprintf(&b, "  exit %s %s line %d\n", x.Outcome, x.StopReason, x.Pos.Line)
		}
		for _, id := range e.IDs {
			fmt.Fprintf(&b, "  id %s line %d\n", id.What, id.Pos.Line)
		}
	}
	return b.String()
}

func TestFixtures(t *testing.T) {
	for _, dir := range []string{"pyagent", "tsagent"} {
		t.Run(dir, func(t *testing.T) {
			prog, diags := buildDir(t, filepath.Join("testdata", dir))
			if len(diags) > 0 {
				t.Errorf("diagnostics: %v", diags)
			}
			golden(t, dir+".ir.json", relProgram(t, prog))
			abs, _ := filepath.Abs("testdata")
			rel := func(s string) string { return strings.TrimPrefix(s, abs+string(filepath.Separator)) }
			res := recognize.Recognize(prog, recognize.Options{Rel: rel})
			golden(t, dir+".recognized.txt", []byte(describe(res, rel)))
		})
	}
}
