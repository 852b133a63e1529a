package model

import (
	"errors"
	"testing"
)

func TestTransitions(t *testing.T) {
	legal := map[[2]RunStatus]bool{
		{"", StatusQueued}: true, {"", StatusRunning}: true,
		{StatusQueued, StatusRunning}: true, {StatusQueued, StatusCancelled}: true,
		{StatusRunning, StatusWaiting}: true, {StatusRunning, StatusCompleted}: true,
		{StatusRunning, StatusFailed}: true, {StatusRunning, StatusCancelled}: true,
		{StatusWaiting, StatusRunning}: true, {StatusWaiting, StatusFailed}: true,
		{StatusWaiting, StatusCancelled}: true,
	}
	from := append([]RunStatus{""}, AllStatuses...)
	for _, f := range from {
		for _, to := range AllStatuses {
			want := legal[[2]RunStatus{f, to}]
			if got := CanTransition(f, to); got != want {
				t.Errorf("CanTransition(%q, %q) = %v, want %v", f, to, got, want)
			}
			_, err := Transition("r", f, to)
			var te *TransitionError
			if want != (err == nil) || (!want && !errors.As(err, &te)) {
				t.Errorf("Transition(%q, %q) error = %v", f, to, err)
			}
		}
	}
}

func TestTerminalNeverLeft(t *testing.T) {
	for _, s := range []RunStatus{StatusCompleted, StatusFailed, StatusCancelled} {
		if !s.Terminal() {
			t.Errorf("%s not terminal", s)
		}
		for _, to := range AllStatuses {
			if CanTransition(s, to) {
				t.Errorf("terminal %s may move to %s", s, to)
			}
		}
	}
}

func TestPriorityOrder(t *testing.T) {
	// docs/model.md: cancelled > timeout > budget_exceeded > guardrail > tool_error = model_error =
	// error > max_steps = max_turns > goal_reached.
	order := [][]StopReason{{StopCancelled}, {StopTimeout}, {StopBudgetExceeded}, {StopGuardrail},
		{StopToolError, StopModelError, StopError}, {StopMaxSteps, StopMaxTurns}, {StopGoalReached}}
	for i, tier := range order {
		for _, a := range tier {
			for _, b := range tier {
				if a.Priority() != b.Priority() {
					t.Errorf("%s and %s should rank equal", a, b)
				}
			}
			for _, lower := range order[i+1:] {
				for _, b := range lower {
					if a.Priority() <= b.Priority() {
						t.Errorf("%s should outrank %s", a, b)
					}
					if got := Highest(b, a); got != a {
						t.Errorf("Highest(%s, %s) = %s", b, a, got)
					}
				}
			}
		}
	}
}

func TestResolveRefusesDowngrade(t *testing.T) {
	tests := []struct {
		recorded, next, want StopReason
		downgrade            bool
	}{
		{"", StopGoalReached, StopGoalReached, false},
		{StopMaxSteps, StopTimeout, StopTimeout, false},
		{StopTimeout, StopMaxSteps, StopTimeout, true},
		{StopCancelled, StopGoalReached, StopCancelled, true},
		{StopAwaitingApproval, StopGoalReached, StopGoalReached, false},
		{StopToolError, StopModelError, StopModelError, false},
		{StopError, "", StopError, false},
	}
	for _, tt := range tests {
		got, err := Resolve("r", tt.recorded, tt.next)
		var de *DowngradeError
		if got != tt.want || tt.downgrade != errors.As(err, &de) {
			t.Errorf("Resolve(%q, %q) = %q, %v; want %q, downgrade %v", tt.recorded, tt.next, got, err, tt.want, tt.downgrade)
		}
	}
}

func TestStopReasonValidAndConsistent(t *testing.T) {
	for _, r := range AllStopReasons {
		if !r.Valid() {
			t.Errorf("%s not valid", r)
		}
	}
	for _, r := range []StopReason{"other:quota", "other:"} {
		if got, want := r.Valid(), r == "other:quota"; got != want {
			t.Errorf("%q.Valid() = %v", r, got)
		}
	}
	if StopReason("finished").Valid() {
		t.Error("unknown reason accepted")
	}
	cases := []struct {
		r    StopReason
		s    RunStatus
		want bool
	}{
		{StopGoalReached, StatusCompleted, true}, {StopMaxSteps, StatusCompleted, false},
		{StopCancelled, StatusCancelled, true}, {StopTimeout, StatusCancelled, false},
		{StopTimeout, StatusFailed, true}, {StopGoalReached, StatusFailed, false},
		{StopCancelled, StatusFailed, false}, {"", StatusFailed, false},
		{StopAwaitingApproval, StatusWaiting, true}, {StopError, StatusWaiting, false},
	}
	for _, c := range cases {
		if got := c.r.ConsistentWith(c.s); got != c.want {
			t.Errorf("%q.ConsistentWith(%s) = %v, want %v", c.r, c.s, got, c.want)
		}
	}
}
