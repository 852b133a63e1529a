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

// TestUnparsedRegions: a syntax error inside a function that has calls is reported with its
// file and line; the rest of the file is still lowered.
func TestUnparsedRegions(t *testing.T) {
	dir := t.TempDir()
	src := "def ok(client):\n    return client.chat([])\n\n\ndef broken(client):\n    while True:\n        r = client.chat(\n        if r ]:\n            return r\n"
	path := filepath.Join(dir, "broken.py")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, diags, err := BuildFiles([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(diags) == 0 {
		t.Fatal("no diagnostic for the unparsed region")
	}
	d := diags[0]
	if d.Pos.File != path || d.Pos.Line < 6 || d.Pos.Line > 8 || !strings.Contains(d.Msg, "broken") {
		t.Errorf("diagnostic %v, want %s:6-8 naming broken", d, path)
	}
	found := false
	for _, f := range prog.Funcs {
		found = found || f.Short == "broken.ok" && len(f.Calls) == 1
	}
	if !found {
		t.Errorf("the function before the error is missing or incomplete")
	}
}

// TestCollect: compiled variants are read once (.js over .mjs/.cjs, .ts over its .js),
// declaration files and nested node_modules are skipped.
func TestCollect(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.js", "a.mjs", "a.cjs", "b.mjs", "b.cjs", "c.ts", "c.js", "d.d.ts", "node_modules/x/e.js", "f.py", "g.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Collect([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range files {
		got = append(got, filepath.Base(f))
	}
	if strings.Join(got, " ") != "a.js b.mjs c.ts f.py" {
		t.Errorf("Collect = %v", got)
	}
	if _, err := Collect([]string{filepath.Join(dir, "g.txt")}); err == nil {
		t.Error("a .txt file is accepted")
	}
}

// TestParallelDeterministic builds a program large enough for the parallel phases twice:
// the IR is the same (run with -race, it also checks the phases share no writes).
func TestParallelDeterministic(t *testing.T) {
	dir := t.TempDir()
	agent, err := os.ReadFile("testdata/pyagent/pyagent/agent.py")
	if err != nil {
		t.Fatal(err)
	}
	runner, err := os.ReadFile("testdata/tsagent/src/runner.ts")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 12 {
		for name, data := range map[string][]byte{fmt.Sprintf("agent%d.py", i): agent, fmt.Sprintf("runner%d.ts", i): runner} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files, err := Collect([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	var dumps [2][]byte
	for i := range dumps {
		prog, _, err := BuildFiles(files, dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(prog.Funcs) < 128 {
			t.Fatalf("%d funcs: too few for the parallel phases", len(prog.Funcs))
		}
		if dumps[i], err = json.Marshal(prog); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(dumps[0], dumps[1]) {
		t.Error("two builds of the same files differ")
	}
}

// TestTreeWalkers: a Python syntax-tree walker and a TypeScript JSON-schema walker have every
// part of a turn's shape except the model — the repeated call is a child accessor returning a
// part of its receiver — and are no turn loops; the accessors' calls say so in the IR.
func TestTreeWalkers(t *testing.T) {
	for _, dir := range []string{"pywalk", "tswalk"} {
		t.Run(dir, func(t *testing.T) {
			prog, _ := buildDir(t, filepath.Join("testdata", dir))
			accessors := 0
			for _, f := range prog.Funcs {
				for _, c := range f.Calls {
					if c.Accessor {
						accessors++
					}
				}
			}
			if accessors == 0 {
				t.Errorf("no call marked as an accessor")
			}
			res := recognize.Recognize(prog, recognize.Options{})
			for _, l := range res.Loops {
				t.Errorf("invented turn loop %s %s at line %d: %v", l.Map.Kind, l.Map.Func, l.Map.Pos.Line, l.Map.Provenance.Evidence)
			}
			if len(res.Entries) > 0 {
				t.Errorf("entries of a tree walk: %+v", res.Entries)
			}
		})
	}
}
