package lifemap_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer"
	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/analysis/checker"
)

// realModule is a framework fetched through the module proxy into a temporary module.
type realModule struct {
	name     string
	requires []string // go get arguments
	packages []string
	// wantEntry, wantLoopFile, wantKind: an entry and the turn loop it must reach.
	wantEntry, wantLoopFile string
	wantKind                model.LoopKind
	wantBound               string
}

var realModules = []realModule{
	{
		name:      "eino",
		requires:  []string{"github.com/cloudwego/eino@latest", "github.com/bytedance/sonic@latest"},
		packages:  []string{"github.com/cloudwego/eino/compose", "github.com/cloudwego/eino/flow/agent/react", "github.com/cloudwego/eino/adk"},
		wantEntry: "react.Agent.Generate", wantLoopFile: "github.com/cloudwego/eino/compose/graph_run.go",
		wantKind: model.LoopEngine, wantBound: "maxSteps",
	},
	{
		name:      "langchaingo",
		requires:  []string{"github.com/tmc/langchaingo@v0.1.14"},
		packages:  []string{"github.com/tmc/langchaingo/agents"},
		wantEntry: "agents.Executor.Call", wantLoopFile: "github.com/tmc/langchaingo/agents/executor.go",
		wantKind: model.LoopFor, wantBound: "e.MaxIterations",
	},
	{
		name:      "genkit",
		requires:  []string{"github.com/firebase/genkit/go@v1.4.0"},
		packages:  []string{"github.com/firebase/genkit/go/ai"},
		wantEntry: "ai.GenerateWithRequest", wantLoopFile: "github.com/firebase/genkit/go/ai/generate.go",
		wantKind: model.LoopRecursion, wantBound: "maxTurns",
	},
}

// TestRealModules fetches eino, langchaingo and genkit through the module proxy and maps and
// vets them. It needs the network and minutes of CPU: set LIFELINE_REALMOD=1 to run it
// (bench/realmods.sh does, and prints the maps).
func TestRealModules(t *testing.T) {
	if os.Getenv("LIFELINE_REALMOD") == "" || testing.Short() {
		t.Skip("set LIFELINE_REALMOD=1 to fetch and analyze eino, langchaingo and genkit")
	}
	for _, rm := range realModules {
		t.Run(rm.name, func(t *testing.T) {
			dir := t.TempDir()
			var imports strings.Builder
			for _, p := range rm.packages {
				imports.WriteString("\t_ \"" + p + "\"\n")
			}
			write := func(name, content string) {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write("go.mod", "module example.com/realmod\n\ngo 1.26\n")
			write("main.go", "package main\n\nimport (\n"+imports.String()+")\n\nfunc main() {}\n")
			goCmd := func(args ...string) {
				cmd := exec.Command("go", args...)
				cmd.Dir = dir
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
				}
			}
			goCmd(append([]string{"get"}, rm.requires...)...)
			goCmd("mod", "tidy")

			pkgs, err := lifemap.Load(rm.packages, lifemap.Options{Dir: dir})
			if err != nil {
				t.Fatal(err)
			}
			m, err := lifemap.Build(pkgs)
			if err != nil {
				t.Fatal(err)
			}
			var entry *model.Entry
			for i := range m.Entries {
				if m.Entries[i].Func == rm.wantEntry {
					entry = &m.Entries[i]
				}
			}
			if entry == nil {
				t.Fatalf("entry %s not found", rm.wantEntry)
			}
			found := false
			for _, l := range entry.Loops {
				if l.Pos.File == rm.wantLoopFile && l.Kind == rm.wantKind {
					found = true
					if l.Bound == nil || l.Bound.Expr != rm.wantBound {
						t.Errorf("loop %s: bound %+v, want %s", l.Pos, l.Bound, rm.wantBound)
					}
					if len(l.ModelCalls) == 0 || len(l.ToolCalls) == 0 {
						t.Errorf("loop %s: model calls %d, tool calls %d", l.Pos, len(l.ModelCalls), len(l.ToolCalls))
					}
				}
			}
			if !found {
				t.Errorf("%s: no %s loop in %s", rm.wantEntry, rm.wantKind, rm.wantLoopFile)
			}
			graph, err := checker.Analyze(analyzer.Checks(), pkgs, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, act := range graph.Roots {
				if act.Err != nil {
					t.Errorf("%s on %s: %v", act.Analyzer.Name, act.Package.PkgPath, act.Err)
				}
			}
		})
	}
}
