package spantree

import (
	"strings"

	"github.com/lifeline-dev/lifeline/model"
)

// Classify maps a failure to the canonical stop reason its text names: a turn or step limit, a
// guardrail tripwire, a cancellation or abort, a timeout, a budget, else plain "error" (the
// Builder refines plain errors to model_error or tool_error by the failing call).
func Classify(e *model.ErrorInfo) model.StopReason {
	if e == nil {
		return model.StopError
	}
	s := strings.ToLower(e.Kind + " " + e.Message)
	switch {
	case has(s, "cancelled", "canceled", "aborterror", "was aborted", "abort", "interrupted", "keyboardinterrupt"):
		return model.StopCancelled
	case has(s, "timeout", "timed out", "deadline exceeded"):
		return model.StopTimeout
	case has(s, "budget", "quota exceeded", "insufficient_quota"):
		return model.StopBudgetExceeded
	case has(s, "guardrail", "tripwire"):
		return model.StopGuardrail
	case has(s, "max turns", "maxturns", "max_turns"):
		return model.StopMaxTurns
	case has(s, "max steps", "maxsteps", "max_steps", "recursion limit", "graphrecursionerror"):
		return model.StopMaxSteps
	}
	return model.StopError
}

// IsCancel reports whether a failure's text says it was a cancellation or an abort.
func IsCancel(e *model.ErrorInfo) bool {
	return e != nil && Classify(e) == model.StopCancelled
}

func has(s string, subs ...string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}
