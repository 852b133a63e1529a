package recognize_test

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestReflectSearch checks a loop in which the model has no tool-call API and its reply text is
// the next tool argument (shape reflectsearch, github.com/smallnest/goskills@v0.3.5
// agent/subagents.go:41-215 SearchSubagent.Execute): the trimmed reply is tested for the marker
// SUFFICIENT (leave, after a log line in an if: the branch leaves on every path), else trimmed again and handed as the query to a plain search function of
// the program (tool.TavilySearch, with tool.DuckDuckGoSearch as fallback, subagents.go:155-158)
// whose text result is added to what the next prompt carries. The planner that runs the
// sub-agent through a map of Subagent interface values (agent/agent.go:236-336) is an entry
// too. Before: no loop, no entry.
func TestReflectSearch(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "reflectsearch.SearchSubagent.Execute")
	if e == nil {
		t.Fatalf("want the run entry reflectsearch.SearchSubagent.Execute, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 62 {
		t.Fatalf("want the loop at subagent.go:62, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if got := siteLines(l.ModelCalls); got != "subagent.go:64" {
		t.Errorf("model calls %s, want subagent.go:64", got)
	}
	if got := siteLines(l.ToolCalls); got != "subagent.go:85 subagent.go:87" {
		t.Errorf("tool calls %s, want subagent.go:85 subagent.go:87 (the search and its fallback)", got)
	}
	if l.Bound == nil || l.Bound.Expr != "maxIterations" || l.Bound.Default != "3" {
		t.Errorf("bound %+v, want maxIterations (default 3)", l.Bound)
	}
	if l.OnBound == nil || l.OnBound.Kind != model.OnBoundSilent {
		t.Errorf("at bound %+v, want silent", l.OnBound)
	}
	if l.ParallelTools || l.ChecksCancel {
		t.Errorf("parallel %v cancel %v, want both false", l.ParallelTools, l.ChecksCancel)
	}
	// (the first search is the run's own tool: its failure fails the run, not a run unstarted;
	// the return after the loop is reached at the marker and at the bound alike)
	checkExits(t, e, map[int]string{55: "failed (error)"})
	if got := exitsByLine(e)[94]; !strings.HasPrefix(got, "completed") {
		t.Errorf("exit at line 94: %q, want completed", got)
	}
	p := entry(res, "reflectsearch.PlanningAgent.Run")
	if p == nil {
		t.Fatalf("want the run entry reflectsearch.PlanningAgent.Run, got none")
	}
	checkExits(t, p, map[int]string{69: "failed (error)", 73: "failed (error)", 81: "completed (goal_reached)"})
}
