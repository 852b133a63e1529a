package recognize_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
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
		"seqflow.Loop.Steps": {27, 28, 45, "", "", false, map[int]string{25: "propagated"}},
		"seqflow.worker.Do":  {27, 28, 45, "", "", false, map[int]string{74: "propagated"}},
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
