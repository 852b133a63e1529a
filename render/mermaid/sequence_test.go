package mermaid

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

// tiedLog is one step whose events all carry the same second-resolution timestamp: the model
// call, then two tool calls it asked for that run in parallel (b starts before a ends).
func tiedLog(ts time.Time) []model.Event {
	base := model.Event{V: model.SchemaVersion, SessionID: "s", RunID: "r", TurnID: "t", StepID: "st"}
	evs := []model.Event{
		{Type: model.SessionStart}, {Type: model.RunStart, Name: "agent", Attempt: 1}, {Type: model.TurnStart}, {Type: model.StepStart},
		{Type: model.ModelStart, CallID: "m", Name: "llm"}, {Type: model.ModelEnd, CallID: "m", Name: "llm", Outcome: model.OutcomeOK},
		{Type: model.ToolStart, CallID: "a", Name: "tool_a"}, {Type: model.ToolStart, CallID: "b", Name: "tool_b"},
		{Type: model.ToolEnd, CallID: "a", Name: "tool_a", Outcome: model.OutcomeOK}, {Type: model.ToolEnd, CallID: "b", Name: "tool_b", Outcome: model.OutcomeOK},
		{Type: model.StepEnd, Outcome: model.OutcomeOK}, {Type: model.TurnEnd, Outcome: model.OutcomeOK, StopReason: model.StopGoalReached},
		{Type: model.RunEnd, Status: model.StatusCompleted, StopReason: model.StopGoalReached},
	}
	for i := range evs {
		ev := base
		ev.Type, ev.Name, ev.CallID, ev.Attempt, ev.Outcome, ev.Status, ev.StopReason = evs[i].Type, evs[i].Name, evs[i].CallID, evs[i].Attempt, evs[i].Outcome, evs[i].Status, evs[i].StopReason
		if ev.Type == model.SessionStart {
			ev.RunID, ev.TurnID, ev.StepID = "", "", ""
		}
		ev.Seq, ev.TS = int64(i+1), ts
		ev.Source = model.SourceRuntime
		evs[i] = ev
	}
	return evs
}

// TestSequenceTiedTimes: when timestamps tie, messages keep the order of the log (the model call
// before the tool calls it asked for, the turn end before the run end) and calls that overlap by
// event order go into one par block.
func TestSequenceTiedTimes(t *testing.T) {
	for _, tc := range []struct {
		name string
		ts   time.Time
	}{{"same second", time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)}, {"timeless", time.Time{}}} {
		t.Run(tc.name, func(t *testing.T) {
			tr := model.Project(tiedLog(tc.ts))
			var buf bytes.Buffer
			if err := Render(&buf, tr, Options{Sequence: true}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			order := []string{"r0->>model: llm", "model-->>r0", "    par tool_a", "r0->>tools: tool_a", "    and tool_b", "r0->>tools: tool_b", "    end", "turn end ok", "run completed"}
			at := -1
			for _, want := range order {
				i := strings.Index(out, want)
				if i < 0 {
					t.Fatalf("no %q in\n%s", want, out)
				}
				if i < at {
					t.Errorf("%q comes too early in\n%s", want, out)
				}
				at = i
			}
		})
	}
}
