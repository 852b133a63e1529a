package join

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

func pos(line int) model.Position { return model.Position{File: "agent.go", Line: line} }

// thinkMap is the shape of analyzer/lifemap/testdata/agent's Think: a recursion bounded by a
// depth, that raises errors.New("max recursion depth reached") at the bound and never checks
// cancellation.
func thinkMap(checksCancel bool, exits ...model.Exit) *model.Map {
	return &model.Map{Entries: []model.Entry{{Func: "agent.Think", Pos: pos(93), Exits: exits, Loops: []model.Loop{{
		Pos: pos(93), Kind: model.LoopRecursion, Func: "agent.Think",
		Bound:        &model.Bound{Expr: "max", Default: "8", Pos: pos(94)},
		OnBound:      &model.OnBound{Kind: model.OnBoundError, Value: `errors.New("max recursion depth reached")`, StopReason: model.StopMaxSteps, Pos: pos(95), Source: `return nil, errors.New("max recursion depth reached")`},
		ModelCalls:   []model.CallSite{{Pos: pos(97), Callee: "agent.Chat.Send", Provenance: model.Provenance{Confidence: model.ConfidenceInferred}}},
		ToolCalls:    []model.CallSite{{Pos: pos(101), Callee: "agent.CallTool", Source: "out, err := CallTool(ctx, reply.ToolCalls[0])", Provenance: model.Provenance{Confidence: model.ConfidenceDeclared}}},
		ChecksCancel: checksCancel,
	}}}}}
}

var thinkExits = []model.Exit{
	{Pos: pos(95), Outcome: "failed", StopReason: model.StopMaxSteps, Source: `return nil, errors.New("max recursion depth reached")`},
	{Pos: pos(99), Outcome: "failed", StopReason: model.StopError, Source: "return reply, err"},
	{Pos: pos(104), Outcome: "completed", StopReason: model.StopGoalReached, Source: "return reply, nil"},
}

func tree(status model.RunStatus, stop model.StopReason, errInfo *model.ErrorInfo, steps int, tools ...string) *model.Tree {
	tu := &model.Turn{ID: "t1"}
	for i := range steps {
		st := &model.Step{ID: "s", Index: i + 1, ModelCalls: []*model.ModelCall{{ID: "m", Name: "gpt"}}}
		for _, name := range tools {
			st.ToolCalls = append(st.ToolCalls, &model.ToolCall{ID: "c", Name: name})
		}
		tu.Steps = append(tu.Steps, st)
	}
	return &model.Tree{Sessions: []*model.Session{{ID: "s1", Runs: []*model.Run{{ID: "r1", SessionID: "s1",
		Status: status, StopReason: stop, Error: errInfo, Turns: []*model.Turn{tu}}}}}}
}

func cancelledCallTree() *model.Tree {
	tr := tree(model.StatusCancelled, model.StopCancelled, nil, 1, "build")
	tr.Sessions[0].Runs[0].Turns[0].Steps[0].ToolCalls[0].Outcome = model.OutcomeCancelled
	return tr
}

type names map[string]model.Position

func (n names) Lookup(s string) (model.Position, bool) { p, ok := n[s]; return p, ok }

func TestJoin(t *testing.T) {
	for _, tc := range []struct {
		name     string
		m        *model.Map
		tr       *model.Tree
		names    Names
		exit     model.Position
		conf     Confidence
		findings []string
	}{
		{"the error text holds the code's literal", thinkMap(false, thinkExits...),
			tree(model.StatusFailed, model.StopError, &model.ErrorInfo{Message: "think: max recursion depth reached"}, 8), nil, pos(95), High, nil},
		{"the stop reason decides", thinkMap(false, thinkExits...),
			tree(model.StatusFailed, model.StopError, &model.ErrorInfo{Message: "connection reset"}, 2), nil, pos(99), High, nil},
		{"completed", thinkMap(false, thinkExits...),
			tree(model.StatusCompleted, model.StopGoalReached, nil, 3), nil, pos(104), High, nil},
		{"past the bound", thinkMap(false, thinkExits...),
			tree(model.StatusFailed, model.StopMaxSteps, nil, 9), nil, pos(95), High, []string{CheckPastBound}},
		{"cancelled: no exit, no check", thinkMap(false, thinkExits...),
			tree(model.StatusCancelled, model.StopCancelled, nil, 1), nil, model.Position{}, "", []string{CheckStatusNoExit, CheckCancelUnchecked}},
		{"cancelled, passed on by a propagating exit of a checking loop", thinkMap(true, append(slices.Clone(thinkExits), model.Exit{Pos: pos(105), Outcome: model.OutcomePropagated})...),
			tree(model.StatusCancelled, model.StopCancelled, nil, 1), nil, pos(105), Low, nil},
		{"cancelled through a cancelled call: explained", thinkMap(false, thinkExits...),
			cancelledCallTree(), nil, model.Position{}, "", []string{CheckStatusNoExit}},
		{"a map that only completes: the status is a note", thinkMap(false, thinkExits[2]),
			tree(model.StatusFailed, model.StopModelError, nil, 1), nil, model.Position{}, "", []string{CheckStatusNoExit}},
		{"a tool the code does not name", thinkMap(false, thinkExits...),
			tree(model.StatusCompleted, model.StopGoalReached, nil, 1, "search", "rm"), names{"search": pos(3)}, pos(104), High, []string{CheckToolUnregistered}},
		{"no tool the code names: nothing said", thinkMap(false, thinkExits...),
			tree(model.StatusCompleted, model.StopGoalReached, nil, 1, "rm"), names{"search": pos(3)}, pos(104), High, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := Join(tc.tr, tc.m, Options{Names: tc.names})
			r := res.Runs[0]
			switch {
			case !tc.exit.IsValid() && r.Exit != nil:
				t.Errorf("exit %+v, want none", r.Exit)
			case tc.exit.IsValid() && r.Exit == nil:
				t.Errorf("no exit, want %s", tc.exit)
			case tc.exit.IsValid() && (r.Exit.Pos != tc.exit || r.Exit.Confidence != tc.conf):
				t.Errorf("exit %s [%s] (%s), want %s [%s]", r.Exit.Pos, r.Exit.Confidence, r.Exit.Reason, tc.exit, tc.conf)
			}
			var got []string
			for _, f := range res.Findings {
				got = append(got, f.Check)
			}
			if !slices.Equal(got, tc.findings) {
				t.Errorf("findings %v, want %v", res.Findings, tc.findings)
			}
			for _, f := range res.Findings {
				if f.Check == CheckStatusNoExit && (f.Severity == model.SevInfo) != (len(tc.m.Entries[0].Exits) == 1) {
					t.Errorf("%s: severity %s; a map whose exits all complete makes it a note", f.Check, f.Severity)
				}
			}
		})
	}
}

func TestLiterals(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{`return nil, errors.New("max recursion depth reached")`, []string{"max recursion depth reached"}},
		{"throw new MaxTurnsExceededError(`Max turns (${state._maxTurns}) exceeded`, state);", []string{"Max turns (", ") exceeded"}},
		{`fmt.Errorf("max steps (%d) reached: %w", n, err)`, []string{"max steps (", ") reached:"}},
		{`raise GraphRecursionError(f"Recursion limit of {limit} reached without hitting a stop condition")`, []string{"Recursion limit of", "reached without hitting a stop condition"}},
		{`x := "ok"`, nil},
	} {
		if got := literals(tc.src); !slices.Equal(got, tc.want) {
			t.Errorf("literals(%s) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestCover(t *testing.T) {
	m := thinkMap(false, thinkExits...)
	Cover(m, Join(tree(model.StatusFailed, model.StopMaxSteps, nil, 8), m, Options{}))
	Cover(m, Join(tree(model.StatusCompleted, model.StopGoalReached, nil, 2, "x"), m, Options{}))
	l := m.Entries[0].Loops[0]
	ex := m.Entries[0].Exits
	for _, c := range []struct {
		what string
		got  *model.Coverage
		want int
	}{
		{"exit 95 (failed, max_steps)", ex[0].Taken, 1}, {"exit 99", ex[1].Taken, 0}, {"exit 104", ex[2].Taken, 1},
		{"bound", l.Bound.Taken, 1}, {"on bound", l.OnBound.Taken, 1}, {"loop", l.Taken, 2},
		{"model call", l.ModelCalls[0].Taken, 2}, {"tool call", l.ToolCalls[0].Taken, 1},
	} {
		if c.got == nil || c.got.Runs != c.want {
			t.Errorf("%s: taken %+v, want %d", c.what, c.got, c.want)
		}
	}
}

func BenchmarkJoin(b *testing.B) {
	m := thinkMap(true, thinkExits...)
	tr := &model.Tree{}
	for i := range 10000 {
		one := tree(model.StatusFailed, model.StopError, &model.ErrorInfo{Message: "think: max recursion depth reached"}, 6, "search", "get_time")
		r := one.Sessions[0].Runs[0]
		r.ID = "r" + string(rune('a'+i%26))
		tr.Sessions = append(tr.Sessions, one.Sessions[0])
	}
	b.ResetTimer()
	for range b.N {
		Join(tr, m, Options{Names: names{"search": pos(1)}})
	}
}

// TestWriteJSON: the streamed JSON is what encoding/json marshals.
func TestWriteJSON(t *testing.T) {
	m := thinkMap(false, thinkExits...)
	tr := tree(model.StatusFailed, model.StopMaxSteps, nil, 9, "search")
	more := tree(model.StatusCompleted, model.StopGoalReached, nil, 2, "search", "rm")
	tr.Sessions = append(tr.Sessions, more.Sessions...)
	tr.Sessions[0].Runs[0].ParentRunID, tr.Sessions[0].Runs[0].Kind = "r0", "retry"
	tr.Sessions[0].Runs[0].Origin = &model.Origin{File: "x.jsonl", Line: 3}
	res := Join(tr, m, Options{Names: names{"search": pos(1)}})
	want, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := res.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("WriteJSON:\n%s\nencoding/json:\n%s", b.String(), want)
	}
}

// FuzzLiterals: literals and idents of any code text neither panic nor return a piece that is
// not in the text.
func FuzzLiterals(f *testing.F) {
	f.Add("throw new MaxTurnsExceededError(`Max turns (${state._maxTurns}) exceeded`, state);")
	f.Add(`fmt.Errorf("max steps (%d) reached: %w", n, err) '\`)
	f.Fuzz(func(t *testing.T, src string) {
		for _, l := range literals(src) {
			if l == "" {
				t.Fatalf("empty piece from %q", src)
			}
		}
		for _, id := range idents(src) {
			if !strings.Contains(src, id) || id == "" {
				t.Fatalf("ident %q not in %q", id, src)
			}
		}
	})
}

// TestCoverAmbiguous: an exit the trace cannot tell from another counts for neither.
func TestCoverAmbiguous(t *testing.T) {
	m := thinkMap(false, model.Exit{Pos: pos(70), Outcome: "completed", StopReason: model.StopGoalReached}, model.Exit{Pos: pos(72), Outcome: "completed", StopReason: model.StopGoalReached})
	res := Join(tree(model.StatusCompleted, model.StopGoalReached, nil, 1), m, Options{})
	if x := res.Runs[0].Exit; x == nil || len(x.Others) != 1 || x.Confidence == High {
		t.Fatalf("exit %+v: want two equal fits", x)
	}
	Cover(m, res)
	for _, x := range m.Entries[0].Exits {
		if x.Taken == nil || x.Taken.Runs != 0 {
			t.Errorf("exit %s: taken %+v, want 0", x.Pos, x.Taken)
		}
	}
}
