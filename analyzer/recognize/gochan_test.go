package recognize_test

import (
	"fmt"
	"path/filepath"
	"sort"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestToolSitesThroughChannelsAndHelpers checks Go shapes whose tool sites are not in the
// loop's function: tool calls sent as messages on a channel field to a dispatcher goroutine
// that looks each up by name and sends its result back on another channel, waited for in a
// select beside ctx.Done() (busagent: parallel when every call is sent before the wait,
// sequential when each is waited for before the next); a package-level helper doing the
// lookup by name, called from a for loop and from a recursive step (helpertool); a sub-agent
// whose model has no tool-call API — the reply's text parsed by a plain function into the
// next action, its verb selecting what runs — reached by an orchestrator through a map of
// interface values (planner).
func TestToolSitesThroughChannelsAndHelpers(t *testing.T) {
	res := recognizeShapes(t)
	type want struct {
		loop     string // file:line
		kind     model.LoopKind
		model    string
		tools    []string
		parallel bool
		cancel   bool
		bound    string
		exits    map[string]string
	}
	busExits := map[string]string{"agent.go:95": "failed (error)", "agent.go:99": "completed (goal_reached)", "agent.go:116": "cancelled (cancelled)",
		"agent.go:118": "failed (error)", "agent.go:122": "failed (max_steps)"}
	plan := want{loop: "agent.go:49", kind: model.LoopFor, model: "agent.go:50", tools: []string{"agent.go:63", "agent.go:65"}, bound: "r.MaxSteps",
		exits: map[string]string{"agent.go:52": "failed (error)", "agent.go:61": "completed (goal_reached)", "agent.go:74": "failed (max_steps)"}}
	delegate := plan
	delegate.exits = map[string]string{"agent.go:52": "failed (error)", "agent.go:61": "completed (goal_reached)", "agent.go:74": "failed (max_steps)",
		"agent.go:86": "not_started", "agent.go:88": "propagated"}
	route := plan
	route.exits = map[string]string{"agent.go:52": "failed (error)", "agent.go:61": "completed (goal_reached)", "agent.go:74": "failed (max_steps)",
		"agent.go:93": "propagated"}
	tests := map[string]want{
		"busagent.Agent.Solve": {loop: "agent.go:92", kind: model.LoopFor, model: "agent.go:93", tools: []string{"agent.go:74"}, parallel: true,
			cancel: true, bound: "a.MaxSteps", exits: busExits},
		"busagent.Stepper.Solve": {loop: "agent.go:136", kind: model.LoopFor, model: "agent.go:137", tools: []string{"agent.go:74"},
			exits: map[string]string{"agent.go:139": "failed (error)", "agent.go:142": "completed (goal_reached)"}},
		// the same over a Bus interface the agent embeds: Publish sends on a channel field,
		// Results hands back another that the worker sends the results on
		"busagent.Worker.Do": {loop: "bus.go:66", kind: model.LoopFor, model: "bus.go:67", tools: []string{"bus.go:45"}, parallel: true,
			cancel: true, bound: "20", exits: map[string]string{"bus.go:69": "failed (error)", "bus.go:72": "completed (goal_reached)",
				"bus.go:82": "cancelled (cancelled)", "bus.go:84": "failed (error)", "bus.go:88": "failed (max_turns)"}},
		"helpertool.Agent.Loop": {loop: "agent.go:55", kind: model.LoopFor, model: "agent.go:56", tools: []string{"agent.go:42"}, bound: "a.max",
			exits: map[string]string{"agent.go:58": "failed (error)", "agent.go:61": "completed (goal_reached)", "agent.go:71": "failed (max_steps)"}},
		"helpertool.Agent.Recurse": {loop: "agent.go:79", kind: model.LoopRecursion, model: "agent.go:83", tools: []string{"agent.go:42"}, bound: "a.max",
			exits: map[string]string{"agent.go:76": "propagated", "agent.go:81": "not_started", "agent.go:85": "failed (error)", "agent.go:88": "completed (goal_reached)",
				"agent.go:93": "failed (error)", "agent.go:97": "propagated"}},
		// the sibling: tool calls a parser reads out of a text-only model's reply
		"planner.Coder.Solve": {loop: "textcalls.go:38", kind: model.LoopFor, model: "textcalls.go:39", tools: []string{"textcalls.go:53"}, bound: "12",
			exits: map[string]string{"textcalls.go:41": "failed (error)", "textcalls.go:45": "completed (goal_reached)", "textcalls.go:60": "failed (max_steps)"}},
		"planner.Researcher.Run":        plan,
		"planner.Orchestrator.Delegate": delegate,
		"planner.Orchestrator.Route":    route,
	}
	at := func(p model.Position) string { return fmt.Sprintf("%s:%d", filepath.Base(p.File), p.Line) }
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			e := entry(res, name)
			if e == nil || len(e.Loops) != 1 {
				t.Fatalf("want one entry with one loop, got %+v", e)
			}
			l := e.Loops[0]
			if at(l.Pos) != w.loop || l.Kind != w.kind {
				t.Errorf("loop %s at %s, want %s at %s", l.Kind, at(l.Pos), w.kind, w.loop)
			}
			if len(l.ModelCalls) != 1 || at(l.ModelCalls[0].Pos) != w.model {
				t.Errorf("model calls %+v, want one at %s", l.ModelCalls, w.model)
			}
			var tools []string
			for _, tc := range l.ToolCalls {
				tools = append(tools, at(tc.Pos))
				if tc.Parallel != w.parallel {
					t.Errorf("tool call at %s parallel=%v, want %v", at(tc.Pos), tc.Parallel, w.parallel)
				}
			}
			sort.Strings(tools)
			if fmt.Sprint(tools) != fmt.Sprint(w.tools) || l.ParallelTools != w.parallel {
				t.Errorf("tool calls %v (parallel %v), want %v (parallel %v)", tools, l.ParallelTools, w.tools, w.parallel)
			}
			if got := l.ChecksCancel; got != w.cancel {
				t.Errorf("cancellation checked %v, want %v", got, w.cancel)
			}
			if got := ""; l.Bound != nil {
				got = l.Bound.Expr
				if got != w.bound {
					t.Errorf("bound %s, want %s", got, w.bound)
				}
			} else if w.bound != "" {
				t.Errorf("no bound, want %s", w.bound)
			}
			got := map[string]string{}
			for _, x := range e.Exits {
				o := x.Outcome
				if x.StopReason != "" {
					o += " (" + string(x.StopReason) + ")"
				}
				got[at(x.Pos)] = o
			}
			if fmt.Sprint(got) != fmt.Sprint(w.exits) {
				t.Errorf("exits %v, want %v", got, w.exits)
			}
		})
	}
}

// TestIDsThroughHelpers checks the id sites of a run whose ids come through helpers
// (idhelper): a Sprintf of the clock (the run id) and of a name and a loop counter (a call
// id), a newID over crypto/rand and an id package's New over uuid, a parent id put into the
// context by a helper around context.WithValue (at each of its calls too), and the parent run
// id a functional-option closure hands a child run.
func TestIDsThroughHelpers(t *testing.T) {
	res := recognizeShapes(t)
	e := entry(res, "idhelper.Manager.Run")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("want one entry with one loop, got %+v", e)
	}
	var got []string
	for _, s := range e.IDs {
		got = append(got, fmt.Sprintf("%s %s:%d", s.Kind, filepath.Base(s.Pos.File), s.Pos.Line))
	}
	want := []string{"minted agent.go:52", "minted agent.go:67", "parent agent.go:74", "parent agent.go:81",
		"minted id.go:15", "parent id.go:23", "parent id.go:40", "minted id.go:8"}
	sort.Strings(got)
	sort.Strings(want)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("ids %v, want %v", got, want)
	}
}
