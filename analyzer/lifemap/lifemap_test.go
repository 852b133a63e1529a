package lifemap_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/analyzer/passes/lifecycle"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/mermaid"
	"github.com/lifeline-dev/lifeline/render/text"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or rewrites it with -update.
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
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n--- got\n%s", name, got)
	}
}

func buildMap(t *testing.T, dir string, patterns ...string) *model.Map {
	t.Helper()
	pkgs, err := lifemap.Load(patterns, lifemap.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	m, err := lifemap.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// render returns the map in the three output formats.
func render(t *testing.T, m *model.Map) (txt, js, mmd []byte) {
	t.Helper()
	var a, b, c bytes.Buffer
	if err := text.MapRender(&a, m); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	if err := mermaid.MapFlowchart(&c, m); err != nil {
		t.Fatal(err)
	}
	return a.Bytes(), b.Bytes(), c.Bytes()
}

func TestAgentMap(t *testing.T) {
	m := buildMap(t, "testdata/agent", "./...")
	txt, js, mmd := render(t, m)
	golden(t, "agent.map.txt", txt)
	golden(t, "agent.map.json", js)
	golden(t, "agent.map.mmd", mmd)

	// The JSON keys the issue specifies, and a round trip through model.Map.
	var back model.Map
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		got  any
		want any
	}{
		{"entries", len(back.Entries), 2},
		{"run loop kind", back.Entries[0].Loops[0].Kind, model.LoopFor},
		{"run bound", back.Entries[0].Loops[0].Bound.Expr, "a.MaxSteps"},
		{"run bound default", back.Entries[0].Loops[0].Bound.Default, "8"},
		{"run on bound", back.Entries[0].Loops[0].OnBound.Value, "agent.ErrTooManySteps"},
		{"run parallel tools", back.Entries[0].Loops[0].ParallelTools, true},
		{"run checks cancel", back.Entries[0].Loops[0].ChecksCancel, true},
		{"think kind", back.Entries[1].Loops[0].Kind, model.LoopRecursion},
		{"think bound", back.Entries[1].Loops[0].Bound.Expr, "max"},
		{"think on bound", back.Entries[1].Loops[0].OnBound.StopReason, model.StopMaxSteps},
		{"position", back.Entries[0].Pos.File, "agent.go"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
	}{
		{"missing package", []string{"example.com/agent/nope"}},
		{"no match", []string{"./nothing/..."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := lifemap.Load(tt.patterns, lifemap.Options{Dir: "testdata/agent"}); err == nil {
				t.Fatal("want an error")
			}
		})
	}
}

// TestLoadModuleFacts loads one package of a module: the packages of the same module it imports
// are type-checked from source, so that the lifecycle pass's facts reach it (the model call
// inside llm.Ask), while the standard library comes from export data.
//
// With "./..." in a subdirectory, the pattern misses llm: Load finds out after loading and loads
// again with it.
func TestLoadModuleFacts(t *testing.T) {
	for _, tt := range []struct{ dir, pattern string }{
		{"testdata/facts", "./agent"},
		{"testdata/facts/agent", "./..."},
	} {
		t.Run(tt.pattern, func(t *testing.T) { testLoadModuleFacts(t, tt.dir, tt.pattern) })
	}
}

func testLoadModuleFacts(t *testing.T, dir, pattern string) {
	pkgs, err := lifemap.Load([]string{pattern}, lifemap.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 1 || pkgs[0].PkgPath != "example.com/facts/agent" {
		t.Fatalf("Load returned %d packages, want example.com/facts/agent alone", len(pkgs))
	}
	imports := pkgs[0].Imports
	if p := imports["example.com/facts/llm"]; p == nil || len(p.Syntax) == 0 {
		t.Errorf("example.com/facts/llm was not loaded from source")
	}
	for _, std := range []string{"context", "strings"} {
		p := imports[std]
		if p == nil || p.Types == nil || p.TypesInfo == nil {
			t.Fatalf("%s: no types", std)
		}
		if len(p.Syntax) > 0 {
			t.Errorf("%s was type-checked from source, want export data", std)
		}
	}
	m, err := lifemap.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Entries) != 1 || len(m.Entries[0].Loops) != 1 {
		t.Fatalf("want one entry with one loop, got %+v", m.Entries)
	}
	calls := m.Entries[0].Loops[0].ModelCalls
	if len(calls) != 1 || !strings.HasSuffix(calls[0].Pos.File, "llm/llm.go") {
		t.Errorf("model calls = %+v, want the one in llm/llm.go reached through llm.Ask", calls)
	}
}

// TestMapPrecision checks what the map must not mistake for run entries, turn loops or run
// exits (testdata/precision): a constructor that stores a closure running the agent later, an
// exported function holding only a retry loop, and argument checks that fail before the run
// starts.
func TestMapPrecision(t *testing.T) {
	m := buildMap(t, "testdata/precision", "./...")
	var funcs []string
	byFunc := map[string]model.Entry{}
	for _, e := range m.Entries {
		funcs = append(funcs, e.Func)
		byFunc[e.Func] = e
	}
	if got, want := strings.Join(funcs, " "), "precision.Agent.Run precision.Start precision.Stream"; got != want {
		t.Fatalf("entries = %s, want %s (not NewRunner, a constructor, nor Ask, a retry)", got, want)
	}
	run := byFunc["precision.Agent.Run"]
	if len(run.Loops) != 1 || run.Loops[0].Pos.Line != 43 {
		t.Errorf("Agent.Run loops = %+v, want the turn loop at line 43 alone (not the retry loop in ask)", run.Loops)
	}
	outcomes := func(e model.Entry) map[int]string {
		out := map[int]string{}
		for _, x := range e.Exits {
			out[x.Pos.Line] = x.Outcome
		}
		return out
	}
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"check before the loop", outcomes(run)[40], lifecycle.OutcomeNotStarted},
		{"error in the loop", outcomes(run)[49], string(model.StatusFailed)},
		{"answer", outcomes(run)[52], string(model.StatusCompleted)},
		{"check before the goroutine", outcomes(byFunc["precision.Start"])[102], lifecycle.OutcomeNotStarted},
		{"return after the goroutine", outcomes(byFunc["precision.Start"])[108], model.OutcomeStarted},
		{"error of the run", outcomes(byFunc["precision.Stream"])[122], string(model.StatusFailed)},
		{"return of an event stream", outcomes(byFunc["precision.Stream"])[126], model.OutcomeStarted},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: outcome %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}
