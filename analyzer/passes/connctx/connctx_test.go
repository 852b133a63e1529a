package connctx_test

import (
	"bytes"
	"flag"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/passes/connctx"
	"golang.org/x/tools/go/analysis/analysistest"
)

// fixable are the test packages whose every finding has a fix, checked against .golden files.
var fixable = []string{"a", "promoted"}

var update = flag.Bool("update", false, "rewrite the .golden files from the suggested fixes (review the diff)")

// Test checks the findings and that applying every suggested fix gives the .golden files.
func Test(t *testing.T) {
	if *update {
		writeGoldens(t, analysistest.Run(t, analysistest.TestData(), connctx.Analyzer, fixable...))
	}
	analysistest.RunWithSuggestedFixes(t, analysistest.TestData(), connctx.Analyzer, fixable...)
}

// writeGoldens applies every suggested fix of results and writes each file's .golden.
func writeGoldens(t *testing.T, results []*analysistest.Result) {
	type edit struct {
		start, end int
		text       string
	}
	edits := map[string][]edit{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, f := range d.SuggestedFixes {
				for _, e := range f.TextEdits {
					p := r.Pass.Fset.Position(e.Pos)
					ed := edit{p.Offset, r.Pass.Fset.Position(e.End).Offset, string(e.NewText)}
					if !slices.Contains(edits[p.Filename], ed) {
						edits[p.Filename] = append(edits[p.Filename], ed)
					}
				}
			}
		}
	}
	for name, es := range edits {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		slices.SortStableFunc(es, func(a, b edit) int { return a.start - b.start })
		var out bytes.Buffer
		last := 0
		for _, e := range es {
			out.Write(src[last:e.start])
			out.WriteString(e.text)
			last = e.end
		}
		out.Write(src[last:])
		formatted, err := format.Source(out.Bytes())
		if err != nil {
			t.Fatalf("%s: fixed code does not parse: %v", name, err)
		}
		if err := os.WriteFile(name+".golden", formatted, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestNoFix checks the findings where no fix can be offered: the name "context" is taken, or
// the module is for a Go version without context.WithoutCancel.
func TestNoFix(t *testing.T) {
	for _, tc := range []struct{ dir, pattern string }{
		{analysistest.TestData(), "nofix"},
		{filepath.Join(analysistest.TestData(), "go120"), "./..."},
	} {
		n := 0
		for _, r := range analysistest.Run(t, tc.dir, connctx.Analyzer, tc.pattern) {
			for _, d := range r.Diagnostics {
				n++
				if len(d.SuggestedFixes) > 0 {
					t.Errorf("%s: a fix is offered: %+v", r.Pass.Fset.Position(d.Pos), d.SuggestedFixes)
				}
			}
		}
		if n == 0 {
			t.Errorf("%s: no finding", tc.pattern)
		}
	}
}

var want = regexp.MustCompile(`\s*// want .*`)

// TestFixesChangeBehaviour runs the analyzer again on the fixed code (the .golden files, without
// their want comments): every fix must remove its finding, so none may be left.
func TestFixesChangeBehaviour(t *testing.T) {
	src := filepath.Join(analysistest.TestData(), "src")
	dir := t.TempDir()
	copyTree(t, src, filepath.Join(dir, "src"))
	for _, pkg := range fixable {
		goldens, err := filepath.Glob(filepath.Join(src, pkg, "*.go.golden"))
		if err != nil || len(goldens) == 0 {
			t.Fatalf("%s: no golden files: %v", pkg, err)
		}
		for _, g := range goldens {
			data, err := os.ReadFile(g)
			if err != nil {
				t.Fatal(err)
			}
			fixed := want.ReplaceAllString(string(data), "")
			name := strings.TrimSuffix(filepath.Base(g), ".golden")
			if err := os.WriteFile(filepath.Join(dir, "src", pkg, name), []byte(fixed), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, r := range analysistest.Run(t, dir, connctx.Analyzer, fixable...) {
		for _, d := range r.Diagnostics {
			t.Errorf("%s: still reported after the fix: %s", r.Pass.Fset.Position(d.Pos), d.Message)
		}
	}
}

// copyTree copies the Go files under src to dst, following symbolic links.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		from, to := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		fi, err := os.Stat(from)
		if err != nil {
			t.Fatal(err)
		}
		if fi.IsDir() {
			copyTree(t, from, to)
			continue
		}
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
