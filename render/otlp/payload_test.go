package otlp

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestPayloadAttributes: the payloads of calls are written under the GenAI names too — messages
// only when they are a JSON array of messages, tool arguments and results always — and in
// lifeline.attrs for lifeline to read back.
func TestPayloadAttributes(t *testing.T) {
	evs := []model.Event{
		{V: 1, Seq: 1, Type: model.SessionStart, SessionID: "s"},
		{V: 1, Seq: 2, Type: model.RunStart, SessionID: "s", RunID: "r"},
		{V: 1, Seq: 3, Type: model.TurnStart, SessionID: "s", RunID: "r", TurnID: "t"},
		{V: 1, Seq: 4, Type: model.StepStart, SessionID: "s", RunID: "r", TurnID: "t", StepID: "st"},
		{V: 1, Seq: 5, Type: model.ModelStart, SessionID: "s", RunID: "r", TurnID: "t", StepID: "st", CallID: "m", Name: "gpt",
			Attrs: map[string]any{model.AttrInput: `[{"role":"user","parts":[{"type":"text","content":"hi"}]}]`}},
		{V: 1, Seq: 6, Type: model.ModelEnd, SessionID: "s", RunID: "r", TurnID: "t", StepID: "st", CallID: "m", Outcome: model.OutcomeOK,
			Attrs: map[string]any{model.AttrOutput: `plain completion text`}},
		{V: 1, Seq: 7, Type: model.ToolStart, SessionID: "s", RunID: "r", TurnID: "t", StepID: "st", CallID: "c", Name: "search",
			Attrs: map[string]any{model.AttrArgs: `{"q":"x"}`}},
		{V: 1, Seq: 8, Type: model.ToolEnd, SessionID: "s", RunID: "r", TurnID: "t", StepID: "st", CallID: "c", Outcome: model.OutcomeOK,
			Attrs: map[string]any{model.AttrResult: map[string]any{"hits": 2.0}}},
	}
	var b bytes.Buffer
	if err := Render(&b, model.Project(evs), Options{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{`"gen_ai.input.messages"`, `"gen_ai.tool.call.arguments","value":{"stringValue":"{\"q\":\"x\"}"}`, `"gen_ai.tool.call.result","value":{"stringValue":"{\"hits\":2}"}`, `plain completion text`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s", want)
		}
	}
	if strings.Contains(out, `"gen_ai.output.messages"`) {
		t.Error("a completion text that is not a message array written as gen_ai.output.messages")
	}
}
