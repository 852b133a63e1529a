package join_test

import (
	"context"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
	"github.com/lifeline-dev/lifeline/model/runtime"
)

// runLooper runs the reference runtime with a model that asks for the tools "search" (a name
// scenarios.go writes) and toolName on every call, and an agent limited to maxSteps steps, and
// returns the tree of its log.
func runLooper(t *testing.T, maxSteps int, toolName string) *model.Tree {
	t.Helper()
	var script []runtime.Script
	for range maxSteps + 1 {
		script = append(script, runtime.Script{Decision: runtime.Decision{ToolCalls: []runtime.ToolCall{{Name: "search", Args: map[string]any{}}, {Name: toolName, Args: map[string]any{}}}}})
	}
	var tools []runtime.Tool
	for _, name := range []string{"search", toolName} {
		tools = append(tools, &runtime.FuncTool{ToolName: name, Fn: func(ctx context.Context, call runtime.Call) (string, error) { return "nothing yet", nil }})
	}
	a := &runtime.Agent{Name: "looper", Version: "v1", Model: runtime.NewScriptedModel("scripted-llm", script...),
		Tools: tools, Limits: runtime.Limits{MaxSteps: maxSteps}}
	rt, err := runtime.Open(runtime.Options{Path: t.TempDir() + "/log.jsonl", Clock: runtime.NewVirtualClock(time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)),
		IDs: runtime.SeqIDs(), Agents: []*runtime.Agent{a}})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	h, err := rt.Start(a, runtime.RunSpec{Input: "find it"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	return rt.Tree()
}

func checks(fs []join.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Check)
	}
	return out
}

// TestRuntimeMismatches: crafted runs of the reference runtime that its map does not explain —
// more steps than the bound's default (25, agent.go Limits), a tool name the code never writes
// — are reported; the same runs within the bound and with a registered name are not.
func TestRuntimeMismatches(t *testing.T) {
	m, err := runtimeMap()
	if err != nil {
		t.Fatal(err)
	}
	names, err := lifemap.IndexLiterals([]string{"./model/runtime"}, "../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		steps int
		tool  string
		want  []string
	}{
		{"within the default bound", 25, "weather", nil},
		{"past the default bound", 30, "weather", []string{join.CheckPastBound}},
		{"an unregistered tool", 3, "rm_rf_everything", []string{join.CheckToolUnregistered}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tree := runLooper(t, tc.steps, tc.tool)
			res := join.Join(tree, m, join.Options{Names: names})
			got := checks(res.Findings)
			if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
				t.Fatalf("findings %v, want %v: %v", got, tc.want, res.Findings)
			}
			r := res.Runs[0]
			if r.Bound == nil || !r.Bound.Hit || r.Bound.Steps != tc.steps {
				t.Fatalf("bound %+v: want a hit after %d steps", r.Bound, tc.steps)
			}
		})
	}
}

// TestNamesOnCleanScenarios: with the index of the runtime's literals, the demo scenarios (whose
// tools scenarios.go names) still produce no finding.
func TestNamesOnCleanScenarios(t *testing.T) {
	m, err := runtimeMap()
	if err != nil {
		t.Fatal(err)
	}
	names, err := lifemap.IndexLiterals([]string{"./model/runtime"}, "../..")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range runtime.ScenarioNames() {
		res, err := runtime.RunScenario(context.Background(), name, runtime.ScenarioOptions{Path: t.TempDir() + "/" + name + ".jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		j := join.Join(res.Tree, m, join.Options{Names: names})
		if len(j.Findings) > 0 {
			t.Errorf("%s: %v", name, j.Findings)
		}
		registered := 0
		for _, r := range j.Runs {
			for _, c := range r.Calls {
				if c.Kind == "tool" && c.Registered.IsValid() {
					registered++
				}
			}
		}
		if res.Tree.Summarize().ToolCalls > 0 && registered == 0 {
			t.Errorf("%s: no tool name found in the code (scenarios.go names them all)", name)
		}
	}
}
