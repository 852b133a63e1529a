package mapdiff

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

func pos(file string, line int) model.Position { return model.Position{File: file, Line: line} }

// fixture is a small map in the shape of a ReAct executor: one entry, a bounded for loop that
// checks cancellation, one model and one tool site, three exits and a parent id site.
func fixture() *model.Map {
	return &model.Map{
		Packages: []string{"example.com/agent"},
		Entries: []model.Entry{{
			Func: "agent.Executor.Run", Pos: pos("agent/run.go", 10),
			Loops: []model.Loop{{
				Pos: pos("agent/run.go", 20), Kind: model.LoopFor, Func: "agent.Executor.Run",
				Bound:        &model.Bound{Expr: "e.MaxSteps", Default: "10", DefaultPos: pos("agent/options.go", 5), Pos: pos("agent/run.go", 20)},
				OnBound:      &model.OnBound{Kind: model.OnBoundError, Value: "ErrMaxSteps", StopReason: model.StopMaxSteps, Pos: pos("agent/run.go", 40)},
				ModelCalls:   []model.CallSite{{Pos: pos("agent/run.go", 22), Source: "resp, err := e.Model.Generate(ctx, msgs)", Callee: "llm.Model.Generate"}},
				ToolCalls:    []model.CallSite{{Pos: pos("agent/run.go", 30), Source: "out, err := tool.Call(ctx, in)", Callee: "tools.Tool.Call"}},
				ChecksCancel: true, CancelPos: pos("agent/run.go", 21),
			}},
			Exits: []model.Exit{
				{Pos: pos("agent/run.go", 25), Outcome: "completed", StopReason: model.StopGoalReached, Detail: "return resp.Text, nil"},
				{Pos: pos("agent/run.go", 27), Outcome: "failed", StopReason: model.StopModelError, Detail: "return \"\", err"},
				{Pos: pos("agent/run.go", 21), Outcome: "cancelled", StopReason: model.StopCancelled, Detail: "return \"\", ctx.Err()"},
				{Pos: pos("agent/run.go", 40), Outcome: "failed", StopReason: model.StopMaxSteps, Detail: "return \"\", ErrMaxSteps"},
			},
			IDs: []model.IDSite{
				{Pos: pos("agent/run.go", 12), Kind: model.IDMinted, What: "uuid.NewString()"},
				{Pos: pos("agent/run.go", 31), Kind: model.IDParent, What: "ParentRunID"},
			},
		}},
	}
}

// shift moves every line of the map down by n, as an edit above the code would.
func shift(m *model.Map, n int) {
	mv := func(p *model.Position) {
		if p.IsValid() {
			p.Line += n
		}
	}
	for i := range m.Entries {
		e := &m.Entries[i]
		mv(&e.Pos)
		for j := range e.Loops {
			l := &e.Loops[j]
			mv(&l.Pos)
			mv(&l.CancelPos)
			if l.Bound != nil {
				mv(&l.Bound.Pos)
			}
			if l.OnBound != nil {
				mv(&l.OnBound.Pos)
			}
			for k := range l.ModelCalls {
				mv(&l.ModelCalls[k].Pos)
			}
			for k := range l.ToolCalls {
				mv(&l.ToolCalls[k].Pos)
			}
		}
		for k := range e.Exits {
			mv(&e.Exits[k].Pos)
		}
		for k := range e.IDs {
			mv(&e.IDs[k].Pos)
		}
	}
}

func loop0(m *model.Map) *model.Loop { return &m.Entries[0].Loops[0] }

func kinds(d Diff) []string {
	var out []string
	for _, c := range d.Changes {
		out = append(out, string(c.Kind)+":"+string(c.Effect))
	}
	return out
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name     string
		edit     func(m *model.Map)
		want     []string // kind:effect, in report order
		weakened bool
	}{
		{"unchanged", func(*model.Map) {}, nil, false},
		{"lines moved", func(m *model.Map) { shift(m, 17) }, nil, false},
		{"entry renamed file only", func(m *model.Map) { m.Entries[0].Pos.File = "agent/executor.go" }, nil, false},
		{"entry added", func(m *model.Map) {
			e := m.Entries[0]
			e.Func, e.Pos = "agent.Executor.Stream", pos("agent/stream.go", 3)
			m.Entries = append(m.Entries, e)
		}, []string{"entry_added:changes"}, false},
		{"entry removed", func(m *model.Map) { m.Entries = nil }, []string{"entry_removed:changes", "loop_removed:changes"}, false},
		{"new entry with an unbounded loop", func(m *model.Map) {
			m.Entries = append(m.Entries, model.Entry{Func: "agent.Chat", Pos: pos("agent/chat.go", 1),
				Loops: []model.Loop{{Pos: pos("agent/chat.go", 5), Kind: model.LoopRecursion, Func: "agent.chatTurn"}}})
		}, []string{"loop_added:weakens", "entry_added:changes"}, true},
		{"loop added with a bound", func(m *model.Map) {
			l := *loop0(m)
			l.Func, l.Pos = "agent.Executor.plan", pos("agent/plan.go", 9)
			m.Entries[0].Loops = append(m.Entries[0].Loops, l)
		}, []string{"loop_added:changes"}, false},
		{"loop removed", func(m *model.Map) { m.Entries[0].Loops = nil }, []string{"loop_removed:changes"}, false},
		{"loop moved to a helper", func(m *model.Map) { loop0(m).Func = "agent.Executor.loop"; loop0(m).Pos = pos("agent/loop.go", 3) }, []string{"loop_moved:changes"}, false},
		{"bound removed", func(m *model.Map) { loop0(m).Bound, loop0(m).OnBound = nil, nil }, []string{"bound_removed:weakens"}, true},
		{"bound added", func(m *model.Map) {}, []string{"bound_added:strengthens"}, false},
		{"bound expression changed", func(m *model.Map) { loop0(m).Bound.Expr = "e.Options.MaxSteps" }, []string{"bound_changed:changes"}, false},
		{"bound now optional, default unknown", func(m *model.Map) { loop0(m).Bound.Optional = true; loop0(m).Bound.Default = "" }, []string{"bound_changed:weakens"}, true},
		{"default raised", func(m *model.Map) { loop0(m).Bound.Default = "20" }, []string{"bound_default_changed:changes"}, false},
		{"default lowered", func(m *model.Map) { loop0(m).Bound.Default = "5" }, []string{"bound_default_changed:changes"}, false},
		{"default raised to infinity", func(m *model.Map) { loop0(m).Bound.Default = `float("inf")` }, []string{"bound_default_changed:weakens"}, true},
		{"default none", func(m *model.Map) { loop0(m).Bound.Default = model.DefaultNone }, []string{"bound_default_changed:weakens"}, true},
		{"on bound now silent", func(m *model.Map) {
			loop0(m).OnBound = &model.OnBound{Kind: model.OnBoundSilent, Pos: pos("agent/run.go", 40)}
		}, []string{"on_bound_changed:weakens"}, true},
		{"on bound now a stop reason", func(m *model.Map) {
			loop0(m).OnBound = &model.OnBound{Kind: model.OnBoundStopReason, Value: "max_steps", StopReason: model.StopMaxSteps, Pos: pos("agent/run.go", 40)}
		}, []string{"on_bound_changed:changes"}, false},
		{"cancellation check removed", func(m *model.Map) { loop0(m).ChecksCancel, loop0(m).CancelPos = false, model.Position{} }, []string{"cancel_check_removed:weakens"}, true},
		{"cancellation check added", func(m *model.Map) {}, []string{"cancel_check_added:strengthens"}, false},
		{"tools now parallel", func(m *model.Map) { loop0(m).ParallelTools = true; loop0(m).ToolCalls[0].Parallel = true }, []string{"tools_parallel:changes"}, false},
		{"tools now sequential", func(m *model.Map) {}, []string{"tools_sequential:changes"}, false},
		{"model call site edited in place", func(m *model.Map) {
			loop0(m).ModelCalls[0].Source = "resp, err := e.Model.Generate(ctx, msgs, opts...)"
			loop0(m).ModelCalls[0].Pos.Line = 23
		}, nil, false},
		{"model call into loop", func(m *model.Map) {
			loop0(m).ModelCalls = append(loop0(m).ModelCalls, model.CallSite{Pos: pos("agent/run.go", 35), Callee: "llm.Model.Summarize"})
		}, []string{"model_call_into_loop:changes"}, false},
		{"model call out of loop", func(m *model.Map) { loop0(m).ModelCalls = nil }, []string{"model_call_out_of_loop:changes"}, false},
		{"one more model site", func(m *model.Map) {
			loop0(m).ModelCalls = append(loop0(m).ModelCalls, model.CallSite{Pos: pos("agent/stream.go", 8), Source: "e.Model.Generate(ctx, msgs, stream)", Callee: "llm.Model.Generate"})
		}, []string{"model_site_added:changes"}, false},
		{"one model site fewer", func(m *model.Map) {}, []string{"model_site_removed:changes"}, false},
		{"tool call into loop", func(m *model.Map) {
			loop0(m).ToolCalls = append(loop0(m).ToolCalls, model.CallSite{Pos: pos("agent/run.go", 33), Callee: "mcp.Client.CallTool"})
		}, []string{"tool_call_into_loop:changes"}, false},
		{"tool call out of loop", func(m *model.Map) { loop0(m).ToolCalls = nil }, []string{"tool_call_out_of_loop:changes"}, false},
		{"one more tool site", func(m *model.Map) {
			loop0(m).ToolCalls = append(loop0(m).ToolCalls, model.CallSite{Pos: pos("agent/run.go", 50), Source: "tool.Call(ctx, retryIn)", Callee: "tools.Tool.Call"})
		}, []string{"tool_site_added:changes"}, false},
		{"one tool site fewer", func(m *model.Map) {}, []string{"tool_site_removed:changes"}, false},
		{"exit added", func(m *model.Map) {
			m.Entries[0].Exits = append(m.Entries[0].Exits, model.Exit{Pos: pos("agent/run.go", 29), Outcome: "failed", StopReason: model.StopGuardrail, Detail: "return \"\", ErrBlocked"})
		}, []string{"exit_added:changes"}, false},
		{"exit removed", func(m *model.Map) { m.Entries[0].Exits = slices.Delete(m.Entries[0].Exits, 1, 2) }, []string{"exit_removed:changes"}, false},
		{"cancelled exit removed", func(m *model.Map) { m.Entries[0].Exits = slices.Delete(m.Entries[0].Exits, 2, 3) }, []string{"exit_removed:weakens"}, true},
		{"failed exit now completed", func(m *model.Map) {
			m.Entries[0].Exits[1].Outcome, m.Entries[0].Exits[1].StopReason = "completed", model.StopGoalReached
		}, []string{"exit_outcome_changed:weakens"}, true},
		{"completed exit now failed", func(m *model.Map) {
			m.Entries[0].Exits[0].Outcome, m.Entries[0].Exits[0].StopReason = "failed", model.StopError
		}, []string{"exit_outcome_changed:changes"}, false},
		{"exit now also cancels (guard widened)", func(m *model.Map) {
			x := &m.Entries[0].Exits[1]
			x.Outcomes = []model.ExitOutcome{{Outcome: "failed", StopReason: model.StopModelError, When: "error"},
				{Outcome: "cancelled", StopReason: model.StopCancelled, When: "aborted"}}
			x.Guard = `resp.StopReason == "error" || resp.StopReason == "aborted"`
		}, []string{"exit_outcome_changed:changes"}, false},
		{"guarded exit loses its outcomes to completed", func(m *model.Map) {
			x := &m.Entries[0].Exits[1]
			x.Outcomes = []model.ExitOutcome{{Outcome: "failed", StopReason: model.StopModelError, When: "error"},
				{Outcome: "completed", StopReason: model.StopGoalReached, When: "stop"}}
		}, []string{"exit_outcome_changed:weakens"}, true},
		{"guarded exit: a stop reason of one literal changed", func(m *model.Map) {
			x := &m.Entries[0].Exits[1]
			x.Outcomes = []model.ExitOutcome{{Outcome: "failed", StopReason: model.StopError, When: "error"}}
		}, []string{"exit_stop_reason_changed:changes"}, false},
		{"exit stop reason changed", func(m *model.Map) { m.Entries[0].Exits[1].StopReason = model.StopError }, []string{"exit_stop_reason_changed:changes"}, false},
		{"exit edited and moved", func(m *model.Map) {
			x := &m.Entries[0].Exits[1]
			x.Detail, x.Pos.Line = "return \"\", fmt.Errorf(\"generate: %w\", err)", 60
			x.Source = x.Detail
		}, nil, false},
		{"exit replaced by one of another outcome", func(m *model.Map) {
			x := &m.Entries[0].Exits[1]
			x.Detail, x.Source, x.Outcome, x.StopReason = "return \"\", ErrBlocked", "return \"\", ErrBlocked", "failed", model.StopGuardrail
		}, []string{"exit_added:changes", "exit_removed:changes"}, false},
		{"exit moved to another file", func(m *model.Map) {
			x := &m.Entries[0].Exits[1]
			x.Detail, x.Source, x.Pos = "return \"\", wrap(err)", "return \"\", wrap(err)", pos("agent/errors.go", 3)
		}, []string{"exit_added:changes", "exit_removed:changes"}, false},
		{"parent id removed", func(m *model.Map) { m.Entries[0].IDs = m.Entries[0].IDs[:1] }, []string{"id_removed:weakens"}, true},
		{"parent id added", func(m *model.Map) {}, []string{"id_added:strengthens"}, false},
		{"minted id removed", func(m *model.Map) { m.Entries[0].IDs = m.Entries[0].IDs[1:] }, []string{"id_removed:changes"}, false},
	}
	// Cases whose edit is the reverse of another: compare the edited map (base) to the fixture.
	reverse := map[string]string{
		"bound added": "bound removed", "cancellation check added": "cancellation check removed",
		"tools now sequential": "tools now parallel", "one model site fewer": "one more model site",
		"one tool site fewer": "one more tool site", "parent id added": "parent id removed",
	}
	byName := map[string]func(*model.Map){}
	for _, tt := range tests {
		byName[tt.name] = tt.edit
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, head := fixture(), fixture()
			if r, ok := reverse[tt.name]; ok {
				byName[r](base)
			} else {
				tt.edit(head)
			}
			d := Compare(base, head)
			if got := kinds(d); !slices.Equal(got, tt.want) {
				t.Errorf("changes = %v, want %v\n%s", got, tt.want, summaries(d))
			}
			if d.Weakened != tt.weakened {
				t.Errorf("weakened = %v, want %v", d.Weakened, tt.weakened)
			}
			for _, c := range d.Changes {
				if c.Summary == "" || len(c.Entries) == 0 {
					t.Errorf("change %s without summary or entries: %+v", c.Kind, c)
				}
			}
		})
	}
}

func summaries(d Diff) string {
	var b strings.Builder
	for _, c := range d.Changes {
		fmt.Fprintf(&b, "  %s %s: %s\n", c.Effect, c.Kind, c.Summary)
	}
	return b.String()
}

// TestCompareMerges: a loop reached from two entries changes once, and the change names both.
func TestCompareMerges(t *testing.T) {
	two := func() *model.Map {
		m := fixture()
		e := m.Entries[0]
		e.Func = "agent.Executor.Stream"
		e.Exits, e.IDs = nil, nil
		m.Entries = append(m.Entries, e)
		return m
	}
	base, head := two(), two()
	head.Entries[0].Loops[0].ChecksCancel = false
	head.Entries[1].Loops[0].ChecksCancel = false
	d := Compare(base, head)
	if len(d.Changes) != 1 || d.Changes[0].Kind != CancelRemoved {
		t.Fatalf("changes:\n%s", summaries(d))
	}
	if got := d.Changes[0].Entries; !slices.Equal(got, []string{"agent.Executor.Run", "agent.Executor.Stream"}) {
		t.Errorf("entries = %v", got)
	}
}

// TestCompareNil: nil maps are empty maps.
func TestCompareNil(t *testing.T) {
	if d := Compare(nil, nil); len(d.Changes) != 0 || d.Weakened || d.Changes == nil {
		t.Errorf("Compare(nil, nil) = %+v", d)
	}
	d := Compare(nil, fixture())
	if got := kinds(d); !slices.Equal(got, []string{"entry_added:changes", "loop_added:changes"}) {
		t.Errorf("Compare(nil, fixture) = %v", got)
	}
}

func TestDefaultVerb(t *testing.T) {
	for _, tt := range []struct{ old, new, want string }{
		{"25", "10000", "raised"}, {`"25"`, `"10000"`, "raised"}, {"'20'", "5", "lowered"},
		{"DEFAULT", "10", "changed"}, {"10", "none", "changed"},
	} {
		if got := defaultVerb(tt.old, tt.new); got != tt.want {
			t.Errorf("defaultVerb(%q, %q) = %q, want %q", tt.old, tt.new, got, tt.want)
		}
	}
}

func TestUnlimited(t *testing.T) {
	for _, tt := range []struct {
		b    *model.Bound
		want bool
	}{
		{nil, true},
		{&model.Bound{Expr: "n", Default: "10"}, false},
		{&model.Bound{Expr: "n", Default: ""}, false},
		{&model.Bound{Expr: "n", Default: "none"}, true},
		{&model.Bound{Expr: "n", Default: "math.inf"}, true},
		{&model.Bound{Expr: "n", Default: "Infinity"}, true},
		{&model.Bound{Expr: "n", Default: "0", Optional: true}, true},
		{&model.Bound{Expr: "n", Default: "", Optional: true}, true},
		{&model.Bound{Expr: "n", Default: "25", Optional: true}, false},
	} {
		if got := Unlimited(tt.b); got != tt.want {
			t.Errorf("Unlimited(%+v) = %v, want %v", tt.b, got, tt.want)
		}
	}
}

// TestCompareTwinSites: the shape of smolagents 1.17.0 → 1.18.0: two agents' steps call the
// model with the same line; the first agent gains a streamed call with the same text as the
// second agent's. The new one is the first agent's (its neighbours pair), not the last one.
func TestCompareTwinSites(t *testing.T) {
	site := func(line int, callee, src string) model.CallSite {
		return model.CallSite{Pos: pos("agent/agents.py", line), Callee: callee, Source: src}
	}
	base, head := fixture(), fixture()
	loop0(base).ModelCalls = []model.CallSite{
		site(100, "Model.generate", "msg = self.model.generate("),
		site(200, "Model.stream", "out = self.model.stream("),
		site(210, "Model.generate", "msg = self.model.generate("),
	}
	loop0(head).ModelCalls = []model.CallSite{
		site(120, "Model.stream", "out = self.model.stream("),
		site(130, "Model.generate", "msg = self.model.generate("),
		site(300, "Model.stream", "out = self.model.stream("),
		site(310, "Model.generate", "msg = self.model.generate("),
	}
	d := Compare(base, head)
	var got []string
	for _, c := range d.Changes {
		got = append(got, fmt.Sprintf("%s %s", c.Kind, c.NewPos))
	}
	want := []string{"model_site_added agent/agents.py:120"}
	if !slices.Equal(got, want) {
		t.Errorf("changes %v, want %v", got, want)
	}
}

func TestLCS(t *testing.T) {
	a := []string{"x", "s", "g", "s", "g"}
	b := []string{"x", "s", "g", "y", "s", "g"}
	ai, bi := lcs(a, b)
	if !slices.Equal(ai, []bool{true, true, true, true, true}) || !slices.Equal(bi, []bool{true, true, true, false, true, true}) {
		t.Errorf("lcs %v %v", ai, bi)
	}
}
