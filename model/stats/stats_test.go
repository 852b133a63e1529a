package stats

import (
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// run builds a run of steps steps (one model call each, of the named model), the given tool
// calls (failing ones with an error of that kind), lasting d, started on day.
func run(id, agent, modelName string, status model.RunStatus, stop model.StopReason, steps int, d time.Duration, day time.Time, cost float64, tools map[string]string) *model.Run {
	r := &model.Run{ID: id, SessionID: "s-" + id, Agent: agent, Status: status, StopReason: stop}
	r.Start, r.End, r.Ended = day, day.Add(d), true
	tu := &model.Turn{ID: id + "-t"}
	for i := range steps {
		st := &model.Step{ID: id + "-st"}
		st.ModelCalls = []*model.ModelCall{{ID: "m", Name: modelName, Usage: model.Usage{InputTokens: 100, OutputTokens: 10, CostUSD: cost / float64(steps)}}}
		if i == 0 {
			for name, kind := range tools {
				c := &model.ToolCall{ID: name, Name: name, Outcome: model.OutcomeOK}
				if kind != "" {
					c.Outcome, c.Error = model.OutcomeError, &model.ErrorInfo{Kind: kind, Message: "x"}
				}
				st.ToolCalls = append(st.ToolCalls, c)
			}
		}
		tu.Steps = append(tu.Steps, st)
	}
	r.Turns = []*model.Turn{tu}
	for _, st := range tu.Steps {
		for _, m := range st.ModelCalls {
			r.Usage = r.Usage.Add(m.Usage)
		}
	}
	return r
}

func TestAggregator(t *testing.T) {
	d1 := time.Date(2026, 11, 1, 23, 0, 0, 0, time.FixedZone("x", -2*3600)) // Nov 2 UTC
	d2 := time.Date(2026, 11, 3, 8, 0, 0, 0, time.UTC)
	runs := []*model.Run{
		run("a", "planner", "gpt", model.StatusCompleted, model.StopGoalReached, 3, 2*time.Second, d1, 0.03, map[string]string{"search": "", "fetch": "timeout"}),
		run("b", "planner", "gpt", model.StatusFailed, model.StopMaxSteps, 10, 9*time.Second, d1, 0.5, map[string]string{"fetch": "timeout"}),
		run("c", "coder", "claude", model.StatusFailed, model.StopToolError, 1, time.Second, d2, 0.01, map[string]string{"shell": "exit", "fetch": ""}),
		run("d", "", "claude", model.StatusCancelled, model.StopCancelled, 2, 30*time.Second, d2, 0, nil),
	}
	runs[2].Error = &model.ErrorInfo{Kind: "tool", Message: "shell failed"}
	for _, tt := range []struct {
		by     string
		groups map[string]int
	}{
		{ByAgent, map[string]int{"planner": 2, "coder": 1, Unnamed: 1}},
		{ByModel, map[string]int{"gpt": 2, "claude": 2}},
		{ByTool, map[string]int{"search": 1, "fetch": 3, "shell": 1}},
		{ByDay, map[string]int{"2026-11-02": 2, "2026-11-03": 2}},
	} {
		t.Run(tt.by, func(t *testing.T) {
			a := New(Options{By: tt.by, Top: 2})
			for _, r := range runs {
				a.Add(nil, r)
			}
			a.AddFindings([]model.Finding{{Code: "L5", Severity: model.SevError}, {Code: "L5", Severity: model.SevWarning}, {Code: "L3", Severity: model.SevInfo}})
			rep := a.Report()
			got := map[string]int{}
			for _, g := range rep.Groups {
				got[g.Key] = g.Runs
			}
			if !mapsEq(got, tt.groups) {
				t.Errorf("groups %v, want %v", got, tt.groups)
			}
			if rep.Runs != 4 || len(rep.Bounds) != 1 || rep.Bounds[0].StopReason != model.StopMaxSteps || rep.Bounds[0].RunIDs[0] != "b" {
				t.Errorf("runs %d bounds %+v", rep.Runs, rep.Bounds)
			}
			if len(rep.FailingTools) != 2 || rep.FailingTools[0] != (ToolCount{"fetch", 3, 2}) || rep.FailingTools[1] != (ToolCount{"shell", 1, 1}) {
				t.Errorf("failing tools %+v", rep.FailingTools)
			}
			if len(rep.ErrorKinds) != 3 || rep.ErrorKinds[0] != (ErrorKind{Kind: "timeout", ToolCalls: 2, Total: 2}) {
				t.Errorf("error kinds %+v", rep.ErrorKinds)
			}
			if len(rep.Slowest) != 2 || rep.Slowest[0].RunID != "d" || rep.Slowest[1].RunID != "b" || rep.Slowest[0].DurationMS != 30000 {
				t.Errorf("slowest %+v", rep.Slowest)
			}
			if len(rep.Costliest) != 2 || rep.Costliest[0].RunID != "b" || rep.Costliest[1].RunID != "a" {
				t.Errorf("costliest %+v", rep.Costliest)
			}
			if len(rep.Findings) != 2 || rep.Findings[0].Code != "L3" || rep.Findings[1] != (RuleCount{Code: "L5", Title: model.InvariantTitles["L5"], Errors: 1, Warnings: 1, Total: 2}) {
				t.Errorf("findings %+v", rep.Findings)
			}
			if q := rep.Overall.Steps; q.P50 != 2 || q.P90 != 10 || q.Max != 10 || q.Min != 1 || q.Mean != 4 {
				t.Errorf("steps %+v", q)
			}
			if st := counts(rep.ByStatus); st["completed"] != 1 || st["failed"] != 2 || st["cancelled"] != 1 || rep.ByStatus[0].Name != "completed" {
				t.Errorf("by status %+v", rep.ByStatus)
			}
		})
	}
}

// TestMaxKeys: names beyond the bound are counted together as (other).
func TestMaxKeys(t *testing.T) {
	a := New(Options{MaxKeys: 2})
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, agent := range []string{"a", "b", "c", "d", "a"} {
		a.Add(nil, run(agent, agent, "m", model.StatusCompleted, model.StopGoalReached, 1, time.Second, day, 0, nil))
	}
	got := map[string]int{}
	for _, g := range a.Report().Groups {
		got[g.Key] = g.Runs
	}
	if !mapsEq(got, map[string]int{"a": 2, "b": 1, Other: 2}) {
		t.Errorf("groups %v", got)
	}
}

func counts(list []NameCount) map[string]int {
	m := map[string]int{}
	for _, c := range list {
		m[c.Name] = c.Count
	}
	return m
}

func mapsEq(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
