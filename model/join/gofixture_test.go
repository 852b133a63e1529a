package join_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/lifemap"
	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
)

// TestSentinelExit joins with the map of analyzer/lifemap/testdata/agent. Its Agent.Run loops
// `for step := 0; step < a.MaxSteps; step++` (agent.go:60, MaxSteps 8 by default) and, when the
// steps run out, returns ErrTooManySteps (agent.go:89), declared as
// errors.New("agent: too many steps") (agent.go:33). A run whose error text is that message
// left through agent.go:89 and hit the bound — whatever stop reason its tracer guessed; a
// provider error left through agent.go:68 (return "", err after a failed Send).
func TestSentinelExit(t *testing.T) {
	dir := "../../analyzer/lifemap/testdata/agent"
	m, _, err := lifemap.MapArgs([]string{"./..."}, lifemap.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	names, err := lifemap.IndexLiterals([]string{"./..."}, dir)
	if err != nil {
		t.Fatal(err)
	}
	run := func(msg string, steps int) join.Run {
		t.Helper()
		tu := &model.Turn{ID: "t"}
		for i := range steps {
			tu.Steps = append(tu.Steps, &model.Step{ID: "s", Index: i + 1, ModelCalls: []*model.ModelCall{{ID: "m"}}})
		}
		tr := &model.Tree{Sessions: []*model.Session{{ID: "s", Runs: []*model.Run{{ID: "r", SessionID: "s", Status: model.StatusFailed,
			StopReason: model.StopError, Error: &model.ErrorInfo{Message: msg}, Turns: []*model.Turn{tu}}}}}}
		res := join.Join(tr, m, join.Options{Names: names})
		if len(res.Findings) > 0 {
			t.Errorf("findings: %v", res.Findings)
		}
		return res.Runs[0]
	}
	r := run("agent: too many steps", 8)
	if r.Exit == nil || r.Exit.Pos.String() != "agent.go:89" || r.Exit.Confidence != join.High {
		t.Errorf("exit %+v, want agent.go:89 [high] (the sentinel's message)", r.Exit)
	}
	if b := r.Bound; b == nil || !b.Hit || b.Pos.String() != "agent.go:60" || b.Agrees != "equal" || b.Default != "8" {
		t.Errorf("bound %+v, want a hit of agent.go:60 after the default 8 steps", b)
	}
	r = run("provider: 503 service unavailable", 2)
	if r.Exit == nil || (r.Exit.Pos.String() != "agent.go:68" && !containsPos(r.Exit.Others, "agent.go:68")) {
		t.Errorf("exit %+v: agent.go:68 (Send failed) should be among the fits", r.Exit)
	}
	if r.Exit != nil && r.Exit.Pos.String() == "agent.go:89" {
		t.Errorf("a provider error matched the sentinel exit")
	}
}

func containsPos(ps []model.Position, s string) bool {
	for _, p := range ps {
		if p.String() == s {
			return true
		}
	}
	return false
}
