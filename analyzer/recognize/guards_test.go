package recognize_test

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// outcomesAt returns, line → "outcome (stop reason) | …", the exits of an entry.
func outcomesAt(e *model.Entry) map[int]string {
	got := map[int]string{}
	for _, x := range e.Exits {
		got[x.Pos.Line] = x.OutcomeString()
	}
	return got
}

// guardCases are the exits of the guardexit shapes (testdata/shapes/guardexit: agent.go,
// agent.ts, agent.py), line → outcomes, read from the code: a return or raise under a test of
// a finish reason, stop reason or status against literals ends the run as the literals say,
// one exit possibly standing for several outcomes; a test of a value that names no ending
// (tool_calls, toolUse) and a return under no test keep their outcome.
var guardCases = map[string]map[int]string{
	"guardexit.Agent.Ask": {
		30: "failed (error)",
		34: "failed (error) | cancelled (cancelled)", // ch.FinishReason == "error" || == FinishAborted
		38: "failed (other:max_tokens)",              // case FinishLength, "max_tokens"
		43: "completed (goal_reached)",               // no tool calls: the answer
	},
	"agent.runLoop": {
		13: "failed (error) | cancelled (cancelled)", // message.stopReason === "error" || === "aborted"
		18: "failed (other:max_tokens)",              // case "length": case "max_tokens": throw
		23: "completed (goal_reached)",               // no tool calls: the answer
	},
	"agent.Agent.run": {
		14: "cancelled (cancelled) | failed (error)", // resp.finish_reason in ("cancelled", "error")
		17: "failed (timeout)",                       // match resp.status: case "timeout"
		21: "failed (other:max_tokens) | failed (guardrail)",
		24: "completed (goal_reached)",
	},
}

func checkGuardExits(t *testing.T, e *model.Entry, want map[int]string) {
	t.Helper()
	if e == nil {
		t.Fatal("no entry")
	}
	got := outcomesAt(e)
	for line, o := range want {
		if got[line] != o {
			t.Errorf("exit at line %d: %q, want %q (all: %v)", line, got[line], o, got)
		}
	}
	for _, x := range e.Exits {
		if len(x.Outcomes) > 0 && (x.Guard == "" || x.Outcomes[0].When == "") {
			t.Errorf("exit at %s stands for %s but says not under which test (guard %q)", x.Pos, x.OutcomeString(), x.Guard)
		}
		if len(x.Outcomes) > 0 && (x.Outcome != x.Outcomes[0].Outcome || x.StopReason != x.Outcomes[0].StopReason) {
			t.Errorf("exit at %s: outcome %s, first of its outcomes %s", x.Pos, x.Outcome, x.Outcomes[0])
		}
	}
}

// TestGuardedExits (Go): the exits of guardexit.Agent.Run.
func TestGuardedExits(t *testing.T) {
	res := recognizeShapes(t)
	name := "guardexit.Agent.Ask"
	checkGuardExits(t, entry(res, name), guardCases[name])
	if e := entry(res, name); e != nil && !strings.Contains(outcomesAt(e)[34], "|") {
		t.Errorf("the exit under the two-literal test stands for one outcome")
	}
}
