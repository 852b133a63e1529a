package recognize_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestHandedOutReceiver checks an exported method of an unexported agent type that the
// exported constructor New hands out (holding a go-openai-like concrete client), whose turn
// loop sits two unexported calls down (Consult → converse → loop, each passing the other's
// results on): callable from any package through New, it is the run entry the loop vet
// reads has, with the loop's facts and the exits of the code the entry passes on.
func TestHandedOutReceiver(t *testing.T) {
	res := recognizeShapes(t)
	e := entry(res, "handedout.assistant.Consult")
	if e == nil {
		t.Fatalf("handedout.assistant.Consult (handed out by the exported New): want a run entry, got none")
	}
	if !strings.Contains(e.Provenance.Rule, "handedout.New") {
		t.Errorf("rule %q: want it to name the exported constructor handedout.New", e.Provenance.Rule)
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 52 {
		t.Fatalf("want the loop at agent.go:52, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if len(l.ModelCalls) != 1 || l.ModelCalls[0].Pos.Line != 53 {
		t.Errorf("model calls: want agent.go:53, got %+v", l.ModelCalls)
	}
	if len(l.ToolCalls) != 1 || l.ToolCalls[0].Pos.Line != 70 {
		t.Errorf("tool calls: want agent.go:70, got %+v", l.ToolCalls)
	}
	if l.Bound == nil || l.Bound.Expr != "a.maxSteps" || l.Bound.Default != "8" {
		t.Errorf("bound: want a.maxSteps default 8, got %+v", l.Bound)
	}
	got := map[string]string{}
	for _, x := range e.Exits {
		got[fmt.Sprintf("%d", x.Pos.Line)] = x.Outcome
	}
	want := map[string]string{"40": "not_started", "55": "failed", "58": "failed", "63": "completed", "75": "failed"}
	for line, o := range want {
		if got[line] != o {
			t.Errorf("exit agent.go:%s: want %s, got %q (all %v)", line, o, got[line], got)
		}
	}
	// an unexported type nothing exported hands out stays no entry
	if e := entry(res, "handedout.hidden.Consult"); e != nil {
		t.Errorf("handedout.hidden.Consult: nothing exported hands hidden out, want no entry, got %+v", e.Loops)
	}
}

// TestEqualityLimit checks a condition-less turn loop bounded inside its body: a local limit
// := 14 (folded into a constant by SSA) tested for equality with a counter grown before each
// continue, the run ending there with the answer of a last model request made without tools
// (return a.final(ctx, msgs)): the bound with its default at the declaration, a silent end on
// the step limit (the error is only that request's), and the exit handing the request's
// outcome back.
func TestEqualityLimit(t *testing.T) {
	res := recognizeShapes(t)
	e := entry(res, "eqlimit.Agent.Chat")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("eqlimit.Agent.Chat: want a run entry with one loop, got %+v", e)
	}
	l := e.Loops[0]
	if b := l.Bound; b == nil || b.Expr != "limit" || b.Default != "14" || b.DefaultPos.Line != 24 || b.Pos.Line != 27 {
		t.Errorf("bound: want limit (default 14 at agent.go:24) at agent.go:27, got %+v", b)
	}
	if ob := l.OnBound; ob == nil || ob.Kind != "silent" || ob.StopReason != "max_steps" || ob.Pos.Line != 28 {
		t.Errorf("on bound: want silent max_steps at agent.go:28, got %+v", ob)
	}
	got := map[int]string{}
	for _, x := range e.Exits {
		got[x.Pos.Line] = x.Outcome + " " + string(x.StopReason)
	}
	want := map[int]string{28: "propagated max_steps", 32: "failed error", 35: "failed error", 40: "completed goal_reached"}
	for line, o := range want {
		if got[line] != o {
			t.Errorf("exit agent.go:%d: want %s, got %q (all %v)", line, o, got[line], got)
		}
	}
}

// TestTextToolCalls checks two sibling tool loops of one type: one over the reply's
// structured ToolCalls, one over the tool calls a parser of the package finds in the reply's
// text (calls := ParseToolCalls(content)): both are turn loops with their model and tool
// calls.
func TestTextToolCalls(t *testing.T) {
	res := recognizeShapes(t)
	for name, want := range map[string][3]int{ // loop, model, tool lines
		"textcalls.Agent.RunText":       {50, 51, 66},
		"textcalls.Agent.RunStructured": {79, 80, 96},
	} {
		e := entry(res, name)
		if e == nil || len(e.Loops) != 1 {
			t.Errorf("%s: want a run entry with one loop, got %+v", name, e)
			continue
		}
		l := e.Loops[0]
		if l.Pos.Line != want[0] || len(l.ModelCalls) != 1 || l.ModelCalls[0].Pos.Line != want[1] ||
			len(l.ToolCalls) != 1 || l.ToolCalls[0].Pos.Line != want[2] {
			t.Errorf("%s: want loop %d, model %d, tool %d, got loop %d, model %+v, tool %+v", name, want[0], want[1], want[2], l.Pos.Line, l.ModelCalls, l.ToolCalls)
		}
	}
}
