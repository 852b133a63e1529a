package recognize_test

import (
	"sync"
	"testing"

	"github.com/lifeline-dev/lifeline/analyzer/goir"
	"github.com/lifeline-dev/lifeline/analyzer/recognize"
	"github.com/lifeline-dev/lifeline/model"
	"golang.org/x/tools/go/packages"
)

// goShapes is the recognition of testdata/goshapes, a module of its own: shapes of unseen Go
// agent code kept apart from testdata/shapes, whose whole-program call graph (CHA, VTA) the
// shapes of one package must not change for the others.
var goShapes struct {
	once sync.Once
	res  *recognize.Result
	err  error
}

func recognizeGoShapes(t *testing.T) *recognize.Result {
	t.Helper()
	goShapes.once.Do(func() {
		pkgs, err := packages.Load(&packages.Config{Mode: mode, Dir: "testdata/goshapes"}, "./...")
		if err != nil {
			goShapes.err = err
			return
		}
		prog, err := goir.Build(pkgs)
		if err != nil {
			goShapes.err = err
			return
		}
		goShapes.res = recognize.Recognize(prog, recognize.Options{})
	})
	if goShapes.err != nil {
		t.Fatal(goShapes.err)
	}
	return goShapes.res
}

// TestHelperSwitchTools checks a turn loop whose tools are dispatched by a switch on the tool
// call's name in a helper the iteration over the reply's tool calls hands each call to (shape
// skillloop, goskills@v0.3.5 runner.go:252-330: out, err = a.executeToolCall(tc)), beside a
// namespaced MCP tool whose name is cut into server and tool by a helper and whose server is
// looked up by the first part (goskills mcp/client.go:136-157). Before, the switch in the helper
// weighed as a tree walker's kind switch (no dispatch, no loop, no entry at all); now the
// helper's call is the tool call site, the MCP session's CallTool the other one.
func TestHelperSwitchTools(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "skillloop.Agent.Run")
	if e == nil {
		t.Fatalf("skillloop.Agent.Run: want a run entry, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 113 {
		t.Fatalf("want the loop at agent.go:113, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if got := siteLines(l.ModelCalls); got != "agent.go:115" {
		t.Errorf("model calls %s, want agent.go:115", got)
	}
	if got := siteLines(l.ToolCalls); got != "agent.go:150 agent.go:59" {
		t.Errorf("tool calls %s, want agent.go:150 (the switching helper) and agent.go:59 (the MCP session)", got)
	}
	if l.Bound == nil || l.Bound.Expr != "10" {
		t.Errorf("bound %+v, want the literal 10", l.Bound)
	}
	if l.ParallelTools || l.ChecksCancel {
		t.Errorf("parallel %v cancel %v, want both false", l.ParallelTools, l.ChecksCancel)
	}
	want := map[int]string{91: "failed (error)", 117: "failed (error)", 123: "completed (goal_reached)", 159: "failed (max_steps)"}
	checkExits(t, e, want)
}

// TestRelayedIterator checks an iterator body that relays the iterator a handler makes
// (shape relayseq, blades@v0.1.0 agent.go:210-236 and 303-356): the entry's exits are those of
// the helper's closure that holds the loop (each yield(nil, err); return fails, the final
// message completes, the bound fails), a resumed invocation answered from the session before
// any step (yield(m, nil); return) completes, a setup failure is not_started; and the model
// call made in either branch of an if (Generate, or the NewStreaming iterator drained into the
// same variable) is both model calls of the step.
func TestRelayedIterator(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "relayseq.agent.Run")
	if e == nil {
		t.Fatalf("relayseq.agent.Run: want a run entry, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 176 {
		t.Fatalf("want the loop at agent.go:176, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if got := siteLines(l.ModelCalls); got != "agent.go:178 agent.go:184" {
		t.Errorf("model calls %s, want agent.go:178 (Generate) and agent.go:184 (NewStreaming)", got)
	}
	if got := siteLines(l.ToolCalls); got != "agent.go:144" || !l.ParallelTools {
		t.Errorf("tool calls %s parallel %v, want agent.go:144, parallel", got, l.ParallelTools)
	}
	want := map[int]string{117: "propagated", 120: "completed (goal_reached)", 125: "not_started",
		181: "failed (error)", 187: "failed (error)", 198: "failed (error)", 204: "failed (error)",
		210: "completed (goal_reached)", 213: "failed (max_steps)"}
	checkExits(t, e, want)
}

// TestDefaultHookExit checks the exit of a hook called through a func field inside the turn
// loop (shape hookdefault, gollem@v0.10.0 gollem.go:436-438: if err := cfg.loopHook(ctx, i,
// input); err != nil { return err }) whose one known value is the package's no-op default:
// before, the default (return nil) made the call a helper that only builds a result, and the
// return was completed; the hook an option installs may refuse, and its error fails the run.
func TestDefaultHookExit(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "hookdefault.Agent.Execute")
	if e == nil {
		t.Fatalf("hookdefault.Agent.Execute: want a run entry, got none")
	}
	want := map[int]string{76: "failed (error)", 80: "failed (error)", 83: "completed (goal_reached)",
		89: "failed (error)", 93: "failed (error)", 99: "failed (max_steps)"}
	checkExits(t, e, want)
}

// TestReflectedRecordTool checks a step behind an LLM interface sharing a thread with its loop
// whose tools are records looked up by the call's name, their Fn field a func of any signature
// called by reflection (shape anyfn, lingoose@v0.3.0 llm/openai/openai.go:410-420 and
// function.go:166-207: fn, ok := o.functions[name]; callFnWithArgumentAsJSON(fn.Fn, args) ->
// reflect.ValueOf(fn).Call). Before, a record with an interface{} field selected nothing and
// reflect.ValueOf lost the callable: no dispatch, no loop, no entry.
func TestReflectedRecordTool(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "anyfn.Assistant.Run")
	if e == nil {
		t.Fatalf("anyfn.Assistant.Run: want a run entry, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 64 {
		t.Fatalf("want the loop at agent.go:64, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if got := siteLines(l.ModelCalls); got != "agent.go:117" {
		t.Errorf("model calls %s, want agent.go:117", got)
	}
	if got := siteLines(l.ToolCalls); got != "agent.go:167" {
		t.Errorf("tool calls %s, want agent.go:167 (the reflect call of the record's Fn)", got)
	}
	if l.Bound == nil || l.Bound.Expr != "a.maxIterations" || l.Bound.Default != "3" {
		t.Errorf("bound %+v, want a.maxIterations default 3", l.Bound)
	}
	if got := exitsByLine(e); got[62] != "not_started" {
		t.Errorf("exit at line 62: %q, want not_started (all %v)", got[62], got)
	}
}

// TestEventThenErrorAtBound checks a loop that at its bound sends a max_turns_reached event
// and returns a sentinel error (shape eventbound, neo@v0.6.2 internal/agent/agent.go:397-399;
// openai-agents-go@v0.1.0 agents/run.go:443-448 attaches a span error, then returns
// MaxTurnsExceededErrorf): before, the recorded event made it a stop_reason; the run fails
// with the error returned there, for the reason recorded.
func TestEventThenErrorAtBound(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "eventbound.Agent.Send")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("eventbound.Agent.Send: want a run entry with one loop, got %+v", e)
	}
	ob := e.Loops[0].OnBound
	if ob == nil || ob.Kind != model.OnBoundError || ob.StopReason != model.StopMaxTurns || ob.Pos.Line != 110 {
		t.Errorf("at bound %+v, want error max_turns at agent.go:110", ob)
	}
	if got := exitsByLine(e); got[110] != "failed (max_turns)" {
		t.Errorf("exit at line 110: %q, want failed (max_turns) (all %v)", got[110], got)
	}
}

// checkExits reports each exit of e whose outcome differs from want (line → outcome).
func checkExits(t *testing.T, e *model.Entry, want map[int]string) {
	t.Helper()
	got := exitsByLine(e)
	for line, o := range want {
		if got[line] != o {
			t.Errorf("exit at line %d: %q, want %q (all %v)", line, got[line], o, got)
		}
	}
}
