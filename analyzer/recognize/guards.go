package recognize

import (
	"strings"

	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/model"
)

// Exits taken under a guard (ir.Return.Guard): a return or raise under a test of a status,
// stop-reason or finish-reason value against literals ends the run as the literals say. One
// exit may stand for several outcomes (if (message.stopReason === "error" ||
// message.stopReason === "aborted") return: failed or cancelled).

// guardFields are the names (lower case, without _ and -) of the values whose literals say how
// a run ended: a status, a state, a stop, finish or end reason.
var guardFields = map[string]bool{
	"status": true, "state": true, "outcome": true, "result": true, "reason": true,
	"stopreason": true, "finishreason": true, "endreason": true, "donereason": true, "stop": true,
	"runstatus": true, "stopcause": true, "terminationreason": true, "completionreason": true,
}

// guardWords map a tested literal (lower case, without _, - and spaces) to an outcome: the
// first entry whose word the literal equals, else the first it contains (exact words first,
// so "stop" is not read into "stopped_by_guardrail").
var guardWords = []struct {
	word    string
	outcome model.RunStatus
	reason  model.StopReason
}{
	{"cancel", model.StatusCancelled, model.StopCancelled}, {"abort", model.StatusCancelled, model.StopCancelled},
	{"timeout", model.StatusFailed, model.StopTimeout}, {"timedout", model.StatusFailed, model.StopTimeout},
	{"maxtokens", model.StatusFailed, "other:max_tokens"}, {"maxoutputtokens", model.StatusFailed, "other:max_tokens"},
	{"length", model.StatusFailed, "other:max_tokens"}, {"tokenlimit", model.StatusFailed, "other:max_tokens"},
	{"maxturns", model.StatusFailed, model.StopMaxTurns}, {"maxsteps", model.StatusFailed, model.StopMaxSteps},
	{"maxiterations", model.StatusFailed, model.StopMaxSteps}, {"recursionlimit", model.StatusFailed, model.StopMaxSteps},
	{"contentfilter", model.StatusFailed, model.StopGuardrail}, {"guardrail", model.StatusFailed, model.StopGuardrail},
	{"refusal", model.StatusFailed, model.StopGuardrail}, {"safety", model.StatusFailed, model.StopGuardrail},
	{"budget", model.StatusFailed, model.StopBudgetExceeded},
	{"interrupt", model.StatusWaiting, ""}, {"approval", model.StatusWaiting, model.StopAwaitingApproval},
	{"paused", model.StatusWaiting, ""}, {"waiting", model.StatusWaiting, ""},
	{"error", model.StatusFailed, model.StopError}, {"failed", model.StatusFailed, model.StopError},
	{"failure", model.StatusFailed, model.StopError},
	{"exception", model.StatusFailed, model.StopError},
	{"stop", model.StatusCompleted, model.StopGoalReached}, {"endturn", model.StatusCompleted, model.StopGoalReached},
	{"complete", model.StatusCompleted, model.StopGoalReached}, {"success", model.StatusCompleted, model.StopGoalReached},
	{"done", model.StatusCompleted, model.StopGoalReached}, {"finished", model.StatusCompleted, model.StopGoalReached},
	{"final", model.StatusCompleted, model.StopGoalReached},
}

func squashWord(s string) string {
	return strings.NewReplacer("_", "", "-", "", " ", "", ".", "").Replace(strings.ToLower(s))
}

// guardValue maps one tested literal to an outcome; ok false when it names none (tool_use,
// tool_calls: not an end).
func guardValue(v string) (model.ExitOutcome, bool) {
	n := squashWord(v)
	if n == "" {
		return model.ExitOutcome{}, false
	}
	for _, w := range guardWords {
		if n == w.word {
			return model.ExitOutcome{Outcome: string(w.outcome), StopReason: w.reason, When: v}, true
		}
	}
	for _, w := range guardWords {
		if len(w.word) > 4 && strings.Contains(n, w.word) {
			return model.ExitOutcome{Outcome: string(w.outcome), StopReason: w.reason, When: v}, true
		}
	}
	return model.ExitOutcome{}, false
}

// guardOutcomes returns the outcomes of an exit taken under g: one per literal that names an
// outcome (two literals naming the same outcome and stop reason give one), nil when g tests no
// status-like value or no literal names an ending other than completed.
func guardOutcomes(g *ir.Guard) []model.ExitOutcome {
	if g == nil || !guardFields[squashWord(g.Field)] {
		return nil
	}
	var out []model.ExitOutcome
	ends := false
	for _, v := range g.Values {
		o, ok := guardValue(v)
		if !ok {
			continue
		}
		dup := false
		for _, p := range out {
			dup = dup || p.Outcome == o.Outcome && p.StopReason == o.StopReason
		}
		if dup {
			continue
		}
		out = append(out, o)
		ends = ends || o.Outcome != string(model.StatusCompleted)
	}
	if !ends {
		return nil
	}
	return out
}

// applyGuard gives ex the outcomes of the guard it is taken under, when the way it returns
// says no more than completed or a generic failure (a return of nothing, a value, a plain
// error): the tested value is the more specific word.
func applyGuard(ex *model.Exit, ret ir.Return) {
	switch ex.Outcome {
	case string(model.StatusCompleted):
		if ex.StopReason != "" && ex.StopReason != model.StopGoalReached {
			return
		}
	case string(model.StatusFailed):
		if ex.StopReason != "" && ex.StopReason != model.StopError {
			return
		}
	default:
		return
	}
	alts := guardOutcomes(ret.Guard)
	if len(alts) == 0 {
		return
	}
	ex.Outcomes = alts
	ex.Outcome, ex.StopReason = alts[0].Outcome, alts[0].StopReason
	ex.Guard = ret.Guard.Text
	if ex.Guard == "" {
		ex.Guard = ret.Guard.Subject
	}
}
