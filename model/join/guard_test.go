package join_test

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/model/join"
)

// endedRun is the tree of one run that ends with status and stop reason.
func endedRun(status model.RunStatus, stop model.StopReason) *model.Tree {
	p := model.NewProjector()
	for i, ev := range []model.Event{
		{Type: model.SessionStart, SessionID: "s"},
		{Type: model.RunStart, SessionID: "s", RunID: "r", Source: model.SourceRuntime},
		{Type: model.RunEnd, SessionID: "s", RunID: "r", Status: status, StopReason: stop, Source: model.SourceRuntime},
	} {
		ev.V, ev.Seq = 1, int64(i+1)
		p.Apply(&ev)
	}
	return p.Tree()
}

// TestGuardedExitJoin: an exit taken under a test of the stop reason against literals stands
// for each outcome its literals name; a run ended with any of them is matched to it, with the
// literal in the reason, and with the outcome and stop reason of that literal. A status none of
// its outcomes is stays unexplained.
func TestGuardedExitJoin(t *testing.T) {
	m := &model.Map{Packages: []string{"agent"}, Entries: []model.Entry{{
		Func: "agent.runLoop", Pos: model.Position{File: "agent.js", Line: 1},
		Exits: []model.Exit{
			{Pos: model.Position{File: "agent.js", Line: 8}, Source: "return;", Outcome: "failed", StopReason: model.StopError,
				Outcomes: []model.ExitOutcome{{Outcome: "failed", StopReason: model.StopError, When: "error"},
					{Outcome: "cancelled", StopReason: model.StopCancelled, When: "aborted"}},
				Guard: `message.stopReason === "error" || message.stopReason === "aborted"`},
			{Pos: model.Position{File: "agent.js", Line: 20}, Source: "return;", Outcome: "completed", StopReason: model.StopGoalReached},
		},
	}}}
	for _, tc := range []struct {
		status           model.RunStatus
		stop             model.StopReason
		line             int
		outcome, literal string
	}{
		{model.StatusCancelled, model.StopCancelled, 8, "cancelled", `"aborted"`},
		{model.StatusFailed, model.StopError, 8, "failed", `"error"`},
		{model.StatusCompleted, model.StopGoalReached, 20, "completed", ""},
		{model.StatusWaiting, "", 0, "", ""},
	} {
		t.Run(string(tc.status), func(t *testing.T) {
			res := join.Join(endedRun(tc.status, tc.stop), m, join.Options{})
			if len(res.Runs) != 1 {
				t.Fatalf("%d runs", len(res.Runs))
			}
			x := res.Runs[0].Exit
			if tc.line == 0 {
				if x != nil {
					t.Errorf("exit %+v for a status no exit produces", x)
				}
				return
			}
			if x == nil || x.Pos.Line != tc.line || x.Outcome != tc.outcome || x.Confidence != join.High {
				t.Fatalf("exit %+v, want line %d, %s [high]", x, tc.line, tc.outcome)
			}
			if tc.literal != "" && !strings.Contains(x.Reason, tc.literal) {
				t.Errorf("reason %q does not name the literal %s", x.Reason, tc.literal)
			}
		})
	}
}
