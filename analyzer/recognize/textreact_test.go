package recognize_test

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestTextReActGo checks two Go ReAct loops whose tool call is parsed out of the model's text,
// not read from a typed tool-call field.
//
// textreact (github.com/taipm/go-deep-agent@1e67c4c agent/builder_react.go Builder.executeReAct,
// askWithMessages, executeTool; @b391a32 agent/react_parser.go parseReActStep): a helper
// returns the reply's text (completion.Choices[0].Message.Content), a plain parser splits it
// into five values (step type, content, tool name, arguments, error), a switch on the step type
// goes on, runs the named tool through a helper that searches the tools by Name and calls the
// Handler func field, or returns the final answer. Before, the parser's result was no element
// (a tuple led by a string) and the text was not the model call's own result: no entry at all.
// The switch on the step's kind is no tool dispatch (its branches' message constructors are no
// tools): the action's branch calls the helper that looks the tool up by name.
//
// reactstep (github.com/PratikDhanave/multi-agent-reference-architecture-go package reasoning,
// func ReAct and parseReActStep): the text is a field of the provider's reply kept in a local
// (resp.Text), the parser returns one struct, "finish" (or no action) returns, the tool is found
// by a range over the slice comparing Name, and the observation is concatenated into a message
// literal appended to the history. Before: no entry.
func TestTextReActGo(t *testing.T) {
	res := recognizeGoShapes(t)
	for _, w := range []struct {
		entry, model, tool, bound, def, atBound string
		loop, defLine                           int
		exits                                   map[int]string
	}{
		{"textreact.Builder.Execute", "react.go:92", "react.go:183", "b.reactConfig.MaxIterations", "5", "result.Error", 91, 53,
			map[int]string{95: "failed (error)", 102: "failed (error)", 125: "failed (error)", 135: "completed (goal_reached)", 139: "failed (error)", 145: "failed (max_steps)"}},
		{"reactstep.ReAct", "react.go:62", "react.go:78", "maxSteps", "5", `errors.New("react: max steps reached without final answer")`, 61, 57,
			map[int]string{64: "failed (error)", 71: "completed (goal_reached)", 94: "failed (max_steps)"}},
	} {
		e := entry(res, w.entry)
		if e == nil {
			t.Errorf("%s: want a run entry, got none", w.entry)
			continue
		}
		if len(e.Loops) != 1 || e.Loops[0].Pos.Line != w.loop {
			t.Errorf("%s: want the loop at react.go:%d, got %+v", w.entry, w.loop, e.Loops)
			continue
		}
		l := e.Loops[0]
		if got := siteLines(l.ModelCalls); got != w.model {
			t.Errorf("%s: model calls %s, want %s", w.entry, got, w.model)
		}
		if got := siteLines(l.ToolCalls); got != w.tool {
			t.Errorf("%s: tool calls %s, want %s (only the tool's own call)", w.entry, got, w.tool)
		}
		if l.Bound == nil || l.Bound.Expr != w.bound || l.Bound.Default != w.def || l.Bound.DefaultPos.Line != w.defLine {
			t.Errorf("%s: bound %+v, want %s (default %s at line %d)", w.entry, l.Bound, w.bound, w.def, w.defLine)
		}
		if l.OnBound == nil || l.OnBound.Kind != model.OnBoundError || l.OnBound.Value != w.atBound {
			// (result.Error read from a field is written as in the source, not as the SSA
			// register t36 holding it)
			t.Errorf("%s: at bound %+v, want the error %s", w.entry, l.OnBound, w.atBound)
		}
		if l.ParallelTools || l.ChecksCancel {
			t.Errorf("%s: parallel %v cancel %v, want both false", w.entry, l.ParallelTools, l.ChecksCancel)
		}
		checkExits(t, e, w.exits)
	}
}

// TestTextReActMarker checks a ReAct loop whose final answer is a marker in the reply's text
// (shape reactswitch, github.com/toumakido/reAct@0ba2ce7 03-api-server-react/main.go
// runReActLoop and parseAction, lib/bedrock/client.go@0732c2c InvokeModel): the loop returns
// once strings.Contains(result.Text, "Final Answer:"), else a plain parser reads the action and
// its input (three results: two texts and a found flag) and a switch on the action runs the
// named tool, the observation appended as the next user message. Before, the marker test was
// no decision (a standard-library call on the text) and the parser's results no action: no turn
// loop. (The loop's function is called only by the command's main: no run entry.)
func TestTextReActMarker(t *testing.T) {
	res := recognizeGoShapes(t)
	var l *model.Loop
	for _, rl := range res.Loops {
		if rl.Func != nil && rl.Func.Short == "reactswitch.runReActLoop" {
			l = &rl.Map
		}
	}
	if l == nil || l.Pos.Line != 36 {
		t.Fatalf("want the turn loop of reactswitch.runReActLoop at main.go:36, got %+v", l)
	}
	if got := siteLines(l.ModelCalls); got != "main.go:37" {
		t.Errorf("model calls %s, want main.go:37", got)
	}
	if got := siteLines(l.ToolCalls); got != "main.go:57 main.go:67" {
		t.Errorf("tool calls %s, want main.go:57 (ListFilesTree) and main.go:67 (ReadFile)", got)
	}
	if l.Bound == nil || l.Bound.Expr != "maxIterations" || l.OnBound == nil || l.OnBound.Kind != model.OnBoundError {
		t.Errorf("bound %+v at bound %+v, want maxIterations, an error", l.Bound, l.OnBound)
	}
	found := false
	for _, ev := range l.Provenance.Evidence {
		if strings.Contains(ev, `strings.Contains(result.Text, "Final Answer:")`) {
			found = true
		}
	}
	if !found {
		t.Errorf("evidence %q, want the final-answer marker test", l.Provenance.Evidence)
	}
}
