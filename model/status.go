package model

import (
	"fmt"
	"strings"
)

// RunStatus is the current phase of a Run.
type RunStatus string

// Run statuses. Completed, Failed and Cancelled are terminal.
const (
	StatusQueued    RunStatus = "queued"
	StatusRunning   RunStatus = "running"
	StatusWaiting   RunStatus = "waiting"
	StatusCompleted RunStatus = "completed"
	StatusFailed    RunStatus = "failed"
	StatusCancelled RunStatus = "cancelled"
)

// AllStatuses lists every run status in lifecycle order.
var AllStatuses = []RunStatus{StatusQueued, StatusRunning, StatusWaiting, StatusCompleted, StatusFailed, StatusCancelled}

// Valid reports whether s is one of the canonical statuses.
func (s RunStatus) Valid() bool {
	switch s {
	case StatusQueued, StatusRunning, StatusWaiting, StatusCompleted, StatusFailed, StatusCancelled:
		return true
	}
	return false
}

// Terminal reports whether nothing may follow s.
func (s RunStatus) Terminal() bool {
	return s == StatusCompleted || s == StatusFailed || s == StatusCancelled
}

var legal = map[RunStatus][]RunStatus{
	StatusQueued:  {StatusRunning, StatusCancelled},
	StatusRunning: {StatusWaiting, StatusCompleted, StatusFailed, StatusCancelled},
	StatusWaiting: {StatusRunning, StatusFailed, StatusCancelled},
}

// CanTransition reports whether a run may move from one status to another (docs/model.md,
// "Legal transitions"). The empty status stands for "no status yet": a run may begin queued or
// running.
func CanTransition(from, to RunStatus) bool {
	if from == "" {
		return to == StatusQueued || to == StatusRunning
	}
	for _, t := range legal[from] {
		if t == to {
			return true
		}
	}
	return false
}

// TransitionError is returned when a status change is not a legal transition.
type TransitionError struct {
	RunID    string
	From, To RunStatus
}

func (e *TransitionError) Error() string {
	from := string(e.From)
	if from == "" {
		from = "(none)"
	}
	if e.From.Terminal() {
		return fmt.Sprintf("run %s: illegal status transition %s → %s: %s is terminal (a retry is a new run with parent_run_id and attempt+1)", e.RunID, from, e.To, from)
	}
	return fmt.Sprintf("run %s: illegal status transition %s → %s", e.RunID, from, e.To)
}

// Transition returns to if from→to is legal, else a *TransitionError.
func Transition(runID string, from, to RunStatus) (RunStatus, error) {
	if !CanTransition(from, to) {
		return from, &TransitionError{RunID: runID, From: from, To: to}
	}
	return to, nil
}

// WaitReason says why a waiting run waits.
type WaitReason string

// Wait reasons.
const (
	WaitApproval  WaitReason = "approval"
	WaitUserInput WaitReason = "user_input"
	WaitCallback  WaitReason = "callback"
	WaitPaused    WaitReason = "paused"
)

// Valid reports whether w is a canonical wait reason.
func (w WaitReason) Valid() bool {
	switch w {
	case WaitApproval, WaitUserInput, WaitCallback, WaitPaused:
		return true
	}
	return false
}

// StopReason is the structured cause recorded when a run (or turn) ends or pauses. The
// vocabulary is extensible as "other:<word>".
type StopReason string

// Stop reasons.
const (
	StopGoalReached      StopReason = "goal_reached"
	StopMaxSteps         StopReason = "max_steps"
	StopMaxTurns         StopReason = "max_turns"
	StopTimeout          StopReason = "timeout"
	StopBudgetExceeded   StopReason = "budget_exceeded"
	StopGuardrail        StopReason = "guardrail"
	StopToolError        StopReason = "tool_error"
	StopModelError       StopReason = "model_error"
	StopError            StopReason = "error"
	StopCancelled        StopReason = "cancelled"
	StopAwaitingApproval StopReason = "awaiting_approval"
)

// AllStopReasons lists the built-in stop reasons, highest priority first.
var AllStopReasons = []StopReason{StopCancelled, StopTimeout, StopBudgetExceeded, StopGuardrail,
	StopToolError, StopModelError, StopError, StopMaxSteps, StopMaxTurns, StopGoalReached, StopAwaitingApproval}

// Valid reports whether r is a built-in stop reason or an "other:<word>" extension.
func (r StopReason) Valid() bool {
	if w, ok := strings.CutPrefix(string(r), "other:"); ok {
		return w != "" && !strings.ContainsAny(w, " \t\n")
	}
	return r.Priority() >= 0
}

// Priority ranks stop reasons when several causes race: higher wins. cancelled > timeout >
// budget_exceeded > guardrail > tool_error = model_error = error > max_steps = max_turns >
// goal_reached. awaiting_approval (a pause, not an end) and other:* rank 0, below every ending
// reason but replaceable by any of them. It returns -1 for an unknown reason.
func (r StopReason) Priority() int {
	switch r {
	case StopCancelled:
		return 7
	case StopTimeout:
		return 6
	case StopBudgetExceeded:
		return 5
	case StopGuardrail:
		return 4
	case StopToolError, StopModelError, StopError:
		return 3
	case StopMaxSteps, StopMaxTurns:
		return 2
	case StopGoalReached:
		return 1
	case StopAwaitingApproval:
		return 0
	}
	if strings.HasPrefix(string(r), "other:") {
		return 0
	}
	return -1
}

// IsPause reports whether r only pauses a run (it is not a reason to end one).
func (r StopReason) IsPause() bool { return r == StopAwaitingApproval }

// DowngradeError is returned when a recorded stop reason would be replaced by a lower-priority one.
type DowngradeError struct {
	RunID         string
	Recorded, New StopReason
}

func (e *DowngradeError) Error() string {
	return fmt.Sprintf("run %s: stop reason %s must not replace %s (lower priority)", e.RunID, e.New, e.Recorded)
}

// Resolve returns the stop reason that stands when next arrives after recorded: the higher of
// the two by Priority. A pause reason (awaiting_approval) is always replaced by an ending reason.
// It returns a *DowngradeError, and keeps recorded, when next ranks strictly lower.
func Resolve(runID string, recorded, next StopReason) (StopReason, error) {
	if recorded == "" || recorded.IsPause() {
		return next, nil
	}
	if next == "" {
		return recorded, nil
	}
	if next.Priority() < recorded.Priority() {
		return recorded, &DowngradeError{RunID: runID, Recorded: recorded, New: next}
	}
	return next, nil
}

// Highest returns the highest-priority reason among rs (the one a race resolves to).
func Highest(rs ...StopReason) StopReason {
	var best StopReason
	for _, r := range rs {
		if r == "" {
			continue
		}
		if best == "" || r.Priority() > best.Priority() {
			best = r
		}
	}
	return best
}

// ConsistentWith reports whether a stop reason fits a terminal status (invariant L6):
// completed needs goal_reached; cancelled needs cancelled; failed needs any ending reason other
// than goal_reached and cancelled; waiting needs a pause reason or none.
func (r StopReason) ConsistentWith(s RunStatus) bool {
	switch s {
	case StatusCompleted:
		return r == StopGoalReached
	case StatusCancelled:
		return r == StopCancelled
	case StatusFailed:
		return r != "" && r != StopGoalReached && r != StopCancelled && !r.IsPause() && r.Valid()
	case StatusWaiting:
		return r == "" || r.IsPause() || strings.HasPrefix(string(r), "other:")
	}
	return true
}
