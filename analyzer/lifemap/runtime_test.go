package lifemap_test

import (
	"os"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"golang.org/x/tools/go/analysis/checker"
)

const runtimePkg = "github.com/lifeline-dev/lifeline/model/runtime"

func skipWithoutRuntime(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("../../model/runtime"); err != nil {
		t.Skip("model/runtime is not there yet")
	}
}

// TestRuntimeMap pins the map of lifeline's reference runtime (go test -update after a change
// to the runtime that moves or changes its lifecycle).
func TestRuntimeMap(t *testing.T) {
	skipWithoutRuntime(t)
	m := buildMap(t, "../..", runtimePkg)
	txt, js, _ := render(t, m)
	golden(t, "runtime.map.txt", txt)
	golden(t, "runtime.map.json", js)
	if len(m.Entries) == 0 || len(m.Entries[0].Loops) == 0 {
		t.Fatal("the runtime's entries and turn loop are not found")
	}
	l := m.Entries[0].Loops[0]
	if l.Bound == nil || !l.ChecksCancel || len(l.ModelCalls) == 0 || len(l.ToolCalls) == 0 {
		t.Errorf("runtime turn loop incomplete: %+v", l)
	}
}

// TestRuntimeClean runs every check on the reference runtime and its tests, as go vet
// -vettool does: it must report nothing.
func TestRuntimeClean(t *testing.T) {
	skipWithoutRuntime(t)
	pkgs, err := lifemap.Load([]string{runtimePkg}, lifemap.Options{Dir: "../..", Tests: true})
	if err != nil {
		t.Fatal(err)
	}
	graph, err := checker.Analyze(analyzer.Checks(), pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, act := range graph.Roots {
		if act.Err != nil {
			t.Errorf("%s: %v", act.Analyzer.Name, act.Err)
		}
		for _, d := range act.Diagnostics {
			t.Errorf("%s: %s: %s", act.Package.Fset.Position(d.Pos), act.Analyzer.Name, d.Message)
		}
	}
}
