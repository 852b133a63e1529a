//go:build cgo

package srcir

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/syntax"
)

// TestModuleLinesParallel shows source lines of one module from several goroutines, as the
// per-function passes do (b.each), for a module made from a tree alone (Build: no lines split
// ahead) and one with no function (declare shows no line of it first). Run with -race: the
// lines were split lazily by whichever reader came first.
func TestModuleLinesParallel(t *testing.T) {
	const src = "LIMIT = 10\nDEFAULT = {'max_turns': LIMIT}\n"
	tree, err := syntax.Parse("/tmp/limits.py", syntax.LangOf("/tmp/limits.py"), []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	m := newModule(tree, tableOf(tree.Lang), nil, nil)
	var wg sync.WaitGroup
	got := make([]string, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = m.source(&syntax.Node{Line: 1 + i%2})
		}()
	}
	wg.Wait()
	for i, s := range got {
		if want := strings.Split(src, "\n")[i%2]; s != want {
			t.Errorf("reader %d: %q, want %q", i, s, want)
		}
	}
}

// TestBuildLinesParallel builds through Build (trees parsed by the caller) one module with
// enough functions for the per-function passes to run on several goroutines: every
// function, loop and return shows its line.
func TestBuildLinesParallel(t *testing.T) {
	var src strings.Builder
	for i := range 300 {
		fmt.Fprintf(&src, "def f%d(x):\n    while x:\n        x = g(x)\n        if x.done:\n            return x\n\n", i)
	}
	tree, err := syntax.Parse("/tmp/m.py", syntax.LangOf("/tmp/m.py"), []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	prog, _ := Build([]*syntax.Tree{tree})
	shown := 0
	for _, f := range prog.Funcs {
		if strings.HasPrefix(f.Source, "def f") && len(f.Loops) == 1 && f.Loops[0].Source == "while x:" {
			shown++
		}
	}
	if shown != 300 {
		t.Fatalf("%d functions show their lines, want 300", shown)
	}
}
