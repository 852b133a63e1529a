package recognize_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/ir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/analyzer/roles"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/packages"
)

const mode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports |
	packages.NeedTypes | packages.NeedTypesSizes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedModule

func recognizeShapes(t *testing.T) *recognize.Result { return recognizeWith(t, recognize.Options{}) }

func recognizeWith(t *testing.T, o recognize.Options) *recognize.Result {
	t.Helper()
	pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: "testdata/shapes"}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	prog, err := goir.Build(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return recognize.Recognize(prog, o)
}

func describe(res *recognize.Result) string {
	var b strings.Builder
	for _, e := range res.Entries {
		fmt.Fprintf(&b, "entry %s %s\n", e.Func, e.Provenance.Rule)
		for _, l := range e.Loops {
			fmt.Fprintf(&b, "  loop %s %s line %d score %.1f\n", l.Kind, l.Func, l.Pos.Line, l.Provenance.Score)
			if l.Bound != nil {
				fmt.Fprintf(&b, "    bound %s default %s@%s optional=%v line %d\n", l.Bound.Expr, l.Bound.Default, l.Bound.DefaultPos, l.Bound.Optional, l.Bound.Pos.Line)
			}
			if l.OnBound != nil {
				fmt.Fprintf(&b, "    at bound %s %s %s line %d\n", l.OnBound.Kind, l.OnBound.Value, l.OnBound.StopReason, l.OnBound.Pos.Line)
			}
			fmt.Fprintf(&b, "    cancel %v line %d\n", l.ChecksCancel, l.CancelPos.Line)
			for _, m := range l.ModelCalls {
				fmt.Fprintf(&b, "    model %s line %d via %v\n", m.Callee, m.Pos.Line, m.Via)
			}
			for _, m := range l.ToolCalls {
				fmt.Fprintf(&b, "    tool %s line %d parallel=%v\n", m.Callee, m.Pos.Line, m.Parallel)
			}
		}
		for _, x := range e.Exits {
			fmt.Fprintf(&b, "  exit %s %s line %d\n", x.Outcome, x.StopReason, x.Pos.Line)
		}
	}
	return b.String()
}

func entry(res *recognize.Result, name string) *model.Entry {
	for i := range res.Entries {
		if res.Entries[i].Func == name {
			return &res.Entries[i]
		}
	}
	return nil
}

// TestRecognize checks the facts of each shape.
func TestRecognize(t *testing.T) {
	res := recognizeShapes(t)
	if os.Getenv("RECOG_PRINT") != "" {
		fmt.Print(describe(res))
	}
	for _, name := range []string{"finite.Summarize", "dbwrite.Archive"} {
		if e := entry(res, name); e != nil {
			t.Errorf("%s: not a turn loop, got entry %+v", name, e.Loops)
		}
	}
	type want struct {
		loopLine, modelLine, toolLine int
		bound, def                    string
		cancel                        bool
		exits                         map[int]string // line → outcome (stop reason)
	}
	tests := map[string]want{
		"loopagent.Agent.Run": {37, 45, 60, "a.MaxTurns", "12", true,
			map[int]string{33: "not_started", 39: "cancelled (cancelled)", 42: "failed (max_turns)", 47: "failed (error)", 52: "completed (goal_reached)"}},
		"chanagent.Runner.Run": {25, 28, 42, "max", "", false,
			map[int]string{37: "completed (goal_reached)", 51: "completed (max_steps)"}},
		"iteragent.agent.Ask": {26, 28, 41, "8", "", false,
			map[int]string{36: "completed (goal_reached)", 45: "failed (max_steps)"}},
		"optagent.Executor.Execute": {25, 29, 40, "e.o.MaxIterations", "10", false,
			map[int]string{27: "completed (max_steps)", 35: "completed (goal_reached)"}},
		"started.Session.Start": {28, 35, 46, "", "", true,
			map[int]string{21: "not_started", 24: "started"}},
		"statemachine.Machine.Drive": {35, 40, 52, "m.MaxSteps", "", false, nil},
		"backoff.Loop": {14, 15, 29, "", "", false,
			map[int]string{19: "cancelled (cancelled)", 26: "completed (goal_reached)"}},
		// indirection: an unexported service behind an exported interface picks one of three
		// Engine implementations; the one that reaches the loop runs it in a goroutine
		"relay.service.Start": {63, 64, 80, "", "", false,
			map[int]string{46: "not_started", 58: "not_started", 84: "started"}},
		"relay.chatEngine.Produce": {63, 64, 80, "", "", false,
			map[int]string{58: "not_started", 84: "started"}},
		// the loop runs in the iter.Seq2 closure the entry returns; a worker reaches it through a
		// func field holding a bound method value
		"seqflow.Loop.Steps": {27, 28, 45, "", "", false, map[int]string{25: "propagated",
			31: "failed (error)", 37: "completed (goal_reached)", 43: "failed (error)"}}, // yield(nil, err); return
		"seqflow.worker.Do": {27, 28, 45, "", "", false, map[int]string{74: "propagated", 77: "propagated"}},
		// the tools run in one of a slice of processor interfaces
		"stages.Pipeline.Run": {31, 32, 63, "", "", false,
			map[int]string{34: "failed (error)", 39: "completed (goal_reached)"}},
	}
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			e := entry(res, name)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want one entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			if l.Pos.Line != w.loopLine {
				t.Errorf("loop at line %d, want %d", l.Pos.Line, w.loopLine)
			}
			if len(l.ModelCalls) != 1 || l.ModelCalls[0].Pos.Line != w.modelLine {
				t.Errorf("model calls %+v, want line %d", l.ModelCalls, w.modelLine)
			}
			if len(l.ToolCalls) != 1 || l.ToolCalls[0].Pos.Line != w.toolLine {
				t.Errorf("tool calls %+v, want line %d", l.ToolCalls, w.toolLine)
			}
			switch {
			case w.bound == "" && l.Bound != nil:
				t.Errorf("bound %+v, want none", l.Bound)
			case w.bound != "" && (l.Bound == nil || l.Bound.Expr != w.bound || l.Bound.Default != w.def):
				t.Errorf("bound %+v, want %s default %q", l.Bound, w.bound, w.def)
			}
			if l.ChecksCancel != w.cancel {
				t.Errorf("checks cancel %v, want %v", l.ChecksCancel, w.cancel)
			}
			got := map[int]string{}
			for _, x := range e.Exits {
				o := x.Outcome
				if x.StopReason != "" {
					o += " (" + string(x.StopReason) + ")"
				}
				got[x.Pos.Line] = o
			}
			for line, o := range w.exits {
				if got[line] != o {
					t.Errorf("exit at line %d: %q, want %q (all: %v)", line, got[line], o, got)
				}
			}
			if len(l.Provenance.Evidence) == 0 || l.Provenance.Score < recognize.Threshold {
				t.Errorf("loop without evidence: %+v", l.Provenance)
			}
		})
	}
}

// TestVeto: a profile's "not" rule switches an inferred model call off.
func TestVeto(t *testing.T) {
	table := roles.NewTable(&roles.Profile{Name: "veto", Rules: []roles.Rule{
		{Role: roles.ModelCall, Object: "example.com/shapes/llm.Client.Chat", Not: true},
	}})
	res := recognizeWith(t, recognize.Options{Table: table})
	if e := entry(res, "loopagent.Agent.Run"); e != nil {
		t.Errorf("vetoed model call still makes a turn loop: %+v", e.Loops)
	}
	if e := entry(res, "chanagent.Runner.Run"); e == nil {
		t.Errorf("the veto of Chat must not switch off Stream")
	}
}

// TestRunEntryRuleOnInterface: a run_entry rule on an interface method binds the
// implementations (confidence profile, even for an unexported type), and a "not" rule on one
// vetoes them.
func TestRunEntryRuleOnInterface(t *testing.T) {
	table := roles.NewTable(&roles.Profile{Name: "iface", Rules: []roles.Rule{
		{Role: roles.RunEntry, Object: "example.com/shapes/relay.Service.Start"},
		{Role: roles.RunEntry, Object: "example.com/shapes/seqflow.Worker.Do", Not: true},
	}})
	res := recognizeWith(t, recognize.Options{Table: table})
	e := entry(res, "relay.service.Start")
	if e == nil || e.Provenance.Confidence != model.ConfidenceProfile {
		t.Fatalf("relay.service.Start: want an entry bound by the profile, got %+v", e)
	}
	if len(e.Loops) != 1 || e.Loops[0].Func != "relay.chatEngine.Produce (closure)" {
		t.Errorf("relay.service.Start loops: %+v", e.Loops)
	}
	if e := entry(res, "seqflow.worker.Do"); e != nil {
		t.Errorf("seqflow.worker.Do vetoed through its interface, got %+v", e.Provenance)
	}
	if e := entry(res, "seqflow.Loop.Steps"); e == nil {
		t.Errorf("the veto of Worker.Do must not switch off Loop.Steps")
	}
}

// TestProfileEngineAndTools: on a hand-made IR, an engine_call rule makes the loop around the
// engine call an engine loop whose node tasks are its model and tool sites, with the bound
// checked in the helper its condition calls and the bound error raised after it; a profile's
// model call in a helper reaches its caller's loop, and a tool_call rule's site reached through
// an executor's submit is a parallel tool site.
func TestProfileEngineAndTools(t *testing.T) {
	profs, err := roles.ParseProfiles([]byte(`{"name": "p", "rules": [
		{"role": "engine_call", "object": "g.Runner.tick", "loop": "g.Graph.stream", "parallel": true},
		{"role": "bound_error", "object": "g.RecursionError", "stop_reason": "max_steps"},
		{"role": "model_call", "object": "a.Model.generate"},
		{"role": "tool_call", "object": "a.Agent.execute_tool"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) ir.Pos { return ir.Pos{File: "/x/g.py", Line: line} }
	p := &ir.Program{Lang: "python", Funcs: []*ir.Func{
		{ID: 0, Name: "g.Graph.stream", Key: "g.Graph.stream", Short: "g.Graph.stream", Exported: true, Parent: -1, BodyOf: -1, Pos: at(1),
			Loops: []ir.Loop{{ID: 0, Kind: ir.LoopFor, Pos: at(3), Outer: -1, OverCall: -1}, {ID: 1, Kind: ir.LoopRangeIter, Pos: at(4), Outer: 0, OverCall: 1}},
			Calls: []ir.Call{{ID: 0, Pos: at(3), Text: "loop.tick()", Keys: []string{"g.Loop.tick"}, Targets: []int{1}, Loops: []int{0}, Dominates: true},
				{ID: 1, Pos: at(4), Text: "runner.tick(tasks)", Keys: []string{"g.Runner.tick"}, Loops: []int{1, 0}, Dominates: true}},
			Returns: []ir.Return{{Pos: at(6), Err: &ir.Value{Kind: ir.ValSentinel, Key: "g.RecursionError", Text: "RecursionError(msg)", Call: -1}, AfterLoops: []int{0, 1}, InLoop: -1}}},
		{ID: 1, Name: "g.Loop.tick", Key: "g.Loop.tick", Short: "g.Loop.tick", Parent: -1, BodyOf: -1, Pos: at(10),
			Branches: []ir.Branch{{Pos: at(11), Text: "self.step > self.stop", Loop: -1, Bound: ir.Operand{Text: "self.stop", Kind: "field", Key: "g.Loop.stop"}, Return: 0}},
			Returns:  []ir.Return{{Pos: at(12), Err: &ir.Value{Kind: ir.ValNil, Call: -1}, InLoop: -1}}},
		{ID: 2, Name: "a.Agent.run", Key: "a.Agent.run", Short: "a.Agent.run", Exported: true, Parent: -1, BodyOf: -1, Pos: at(20),
			Loops: []ir.Loop{{ID: 0, Kind: ir.LoopFor, Pos: at(21), Outer: -1, OverCall: -1}},
			Calls: []ir.Call{{ID: 0, Pos: at(22), Text: "self.step()", Keys: []string{"a.Agent.step"}, Targets: []int{3}, Loops: []int{0}, Dominates: true}}},
		{ID: 3, Name: "a.Agent.step", Key: "a.Agent.step", Short: "a.Agent.step", Parent: -1, BodyOf: -1, Pos: at(30),
			Calls: []ir.Call{{ID: 0, Pos: at(31), Text: "self.model.generate(m)", Keys: []string{"a.Model.generate"}, Abstract: "a.Model.generate"},
				{ID: 1, Pos: at(32), Text: "executor.submit(one, call)", ArgFuncs: []int{4}, Targets: []int{4}, Concurrent: "go"}}},
		{ID: 4, Name: "a.Agent.step.one", Short: "a.Agent.step.one", Parent: 3, BodyOf: -1, Pos: at(40),
			Calls: []ir.Call{{ID: 0, Pos: at(41), Text: "self.execute_tool(name)", Keys: []string{"a.Agent.execute_tool"}}}},
	}}
	res := recognize.Recognize(p, recognize.Options{Table: roles.NewTable(profs...)})
	e := entry(res, "g.Graph.stream")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("no engine entry: %s", describe(res))
	}
	l := e.Loops[0]
	if l.Kind != model.LoopEngine || l.Pos.Line != 3 || len(l.ModelCalls) != 1 || l.ModelCalls[0].Pos.Line != 4 || !l.ParallelTools {
		t.Errorf("engine loop: %s", describe(res))
	}
	if l.Bound == nil || l.Bound.Expr != "self.stop" || l.OnBound == nil || l.OnBound.Kind != model.OnBoundError || l.OnBound.Pos.Line != 6 {
		t.Errorf("engine bound / at bound: %+v %+v", l.Bound, l.OnBound)
	}
	a := entry(res, "a.Agent.run")
	if a == nil || len(a.Loops) != 1 || len(a.Loops[0].ModelCalls) != 1 || len(a.Loops[0].ToolCalls) != 1 || !a.Loops[0].ToolCalls[0].Parallel {
		t.Errorf("profile model call in a helper / tool through submit: %s", describe(res))
	}
}

// TestChildRunThroughTool: a tool that runs another agent starts a child run; the parent's
// entry lists its own loop only, the tool implementation is no entry, and the child agent is
// one of its own.
func TestChildRunThroughTool(t *testing.T) {
	res := recognizeShapes(t)
	e := entry(res, "subagent.Agent.Run")
	if e == nil || len(e.Loops) != 1 || e.Loops[0].Func != "subagent.Agent.Run" {
		t.Fatalf("subagent.Agent.Run: want its own loop only, got %s", describe(res))
	}
	if entry(res, "subagent.Delegate.Call") != nil {
		t.Errorf("the delegate tool is not a run entry")
	}
	if c := entry(res, "subagent.Researcher.Research"); c == nil || len(c.Loops) != 1 {
		t.Errorf("the child agent's entry: %+v", c)
	}
}

// TestAgentAlsoATool: an agent interface run at the top (Serve) and also handed to another
// agent's loop as a tool keeps its implementations as entries.
func TestAgentAlsoATool(t *testing.T) {
	res := recognizeShapes(t)
	if entry(res, "subagent.Agent.Run") == nil {
		t.Errorf("subagent.Agent.Run implements Runnable.Run, a tool of Researcher but run by Serve too: want an entry")
	}
}

// TestVetoToolAndLoop: a profile's "not" rule switches an inferred tool call off (the named
// func type the loop runs its tools through is not a tool) and an inferred turn loop off (a
// "not engine_loop" rule on the function holding it: it holds no turn loop), leaving the other
// shapes alone.
func TestVetoToolAndLoop(t *testing.T) {
	table := roles.NewTable(&roles.Profile{Name: "veto", Rules: []roles.Rule{
		{Role: roles.ToolCall, Object: "example.com/shapes/loopagent.Tool", Not: true},
		{Role: roles.EngineLoop, Object: "example.com/shapes/optagent.Executor.Execute", Not: true},
	}})
	res := recognizeWith(t, recognize.Options{Table: table})
	e := entry(res, "loopagent.Agent.Run")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("loopagent.Agent.Run: the tool veto must keep the loop, got %+v", e)
	}
	for _, tc := range e.Loops[0].ToolCalls {
		t.Errorf("vetoed tool call still listed: %s at line %d", tc.Callee, tc.Pos.Line)
	}
	if e := entry(res, "optagent.Executor.Execute"); e != nil {
		t.Errorf("vetoed loop still makes an entry: %+v", e.Loops)
	}
	for _, l := range res.Loops {
		if l.Func.Key == "example.com/shapes/optagent.Executor.Execute" {
			t.Errorf("vetoed loop still recognized at line %d", l.Map.Pos.Line)
		}
	}
	if e := entry(res, "iteragent.agent.Ask"); e == nil || len(e.Loops[0].ToolCalls) == 0 {
		t.Errorf("the vetoes must not touch iteragent: %+v", e)
	}
}

// TestDescendingRecursion: on a hand-made IR, a function whose call's result decides, is
// dispatched by name and fed back is a turn recursion when it calls itself again on what it
// built, and none when its only way back to itself hands over a part of what it was handed
// (ir.Call.Descends: a wrapper delegating to the tool it wraps, a walk down a tree).
func TestDescendingRecursion(t *testing.T) {
	at := func(line int) ir.Pos { return ir.Pos{File: "/x/a.go", Line: line} }
	build := func(descends bool) *ir.Program {
		return &ir.Program{Lang: "go", Funcs: []*ir.Func{
			{ID: 0, Name: "a.Agent.step", Key: "a.Agent.step", Short: "a.Agent.step", Exported: true, Parent: -1, BodyOf: -1, Pos: at(1),
				Calls: []ir.Call{
					{ID: 0, Pos: at(2), Text: "m.Chat(ctx, msgs)", Keys: []string{"a.Model.Chat"}, PassesContext: true,
						Flow: &ir.Flow{Delivery: "return",
							Checked:   []ir.Check{{Pos: at(3), Text: "len(r.ToolCalls) == 0", Leaves: true, Return: 0, Func: 0}},
							Iterated:  []ir.Pos{at(4)},
							Dispatch:  []ir.Dispatch{{Pos: at(5), How: "map_lookup", Func: 0, Calls: []ir.CallRef{{Func: 0, Call: 1}}}},
							FeedsNext: true, FeedPos: at(7)}},
					{ID: 1, Pos: at(6), Text: "tool(ctx, args)", Loops: nil},
					{ID: 2, Pos: at(8), Text: "a.step(ctx, next)", Keys: []string{"a.Agent.step"}, Targets: []int{0}, Recursive: true, Descends: descends},
				},
				Returns: []ir.Return{{Pos: at(3), Err: &ir.Value{Kind: ir.ValNil, Call: -1}, InLoop: -1}}},
		}}
	}
	if res := recognize.Recognize(build(false), recognize.Options{}); len(res.Loops) != 1 || res.Loops[0].Map.Kind != model.LoopRecursion {
		t.Fatalf("a recursion on what it built: want a turn recursion, got %s", describe(res))
	}
	if res := recognize.Recognize(build(true), recognize.Options{}); len(res.Loops) != 0 {
		t.Errorf("a recursion down a part of what it was handed: want no turn loop, got %s", describe(res))
	}
}

// TestInputProducer: on a hand-made IR, two calls of one loop whose flows look alike (a
// hook's result reaches the same tests and dispatch as the model's, through the messages the
// model call receives): the one whose result is handed to the other as its input
// (ir.Flow.Into) is no model call; without that link both are.
func TestInputProducer(t *testing.T) {
	at := func(line int) ir.Pos { return ir.Pos{File: "/x/a.js", Line: line} }
	build := func(into bool) *ir.Program {
		flow := func() *ir.Flow {
			return &ir.Flow{Delivery: "return",
				Checked:   []ir.Check{{Pos: at(5), Text: "calls.length === 0", Leaves: true, Return: 0, Func: 0}},
				Iterated:  []ir.Pos{at(6)},
				Dispatch:  []ir.Dispatch{{Pos: at(7), How: "map_lookup", Func: 0, Calls: []ir.CallRef{{Func: 0, Call: 2}}}},
				FeedsNext: true, FeedPos: at(8)}
		}
		hook := flow()
		if into {
			hook.Into = []ir.CallRef{{Func: 0, Call: 1}}
		}
		return &ir.Program{Lang: "javascript", Funcs: []*ir.Func{
			{ID: 0, Name: "a.run", Key: "a.run", Short: "a.run", Exported: true, Parent: -1, BodyOf: -1, Pos: at(1),
				Loops: []ir.Loop{{ID: 0, Kind: ir.LoopFor, Pos: at(2), Outer: -1, OverCall: -1}},
				Calls: []ir.Call{
					{ID: 0, Pos: at(3), Text: "prepareStep({ messages })", Loops: []int{0}, Flow: hook},
					{ID: 1, Pos: at(4), Text: "model.doGenerate({ messages: prepared.messages })", Loops: []int{0}, Flow: flow()},
					{ID: 2, Pos: at(7), Text: "tool.execute(call.input)", Loops: []int{0}},
				},
				Returns: []ir.Return{{Pos: at(5), Err: &ir.Value{Kind: ir.ValNil, Call: -1}, InLoop: 0}}},
		}}
	}
	res := recognize.Recognize(build(true), recognize.Options{})
	if len(res.Loops) != 1 || len(res.Loops[0].Map.ModelCalls) != 1 || res.Loops[0].Map.ModelCalls[0].Pos.Line != 4 {
		t.Fatalf("a hook preparing the model call's input: want the model call at line 4 only, got %s", describe(res))
	}
	if res := recognize.Recognize(build(false), recognize.Options{}); len(res.Loops) != 1 || len(res.Loops[0].Map.ModelCalls) != 2 {
		t.Errorf("without the link: want both calls, got %s", describe(res))
	}
}
