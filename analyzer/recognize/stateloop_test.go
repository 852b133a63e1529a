package recognize_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestStateMachineLoop checks a chat agent whose one condition-less for loop, started in a
// goroutine by Run, both waits for the next query and runs the steps of the current one, over
// a switch on the agent's state field (shape stateloop, GoogleCloudPlatform/kubectl-ai@0112b4c
// pkg/agent/conversation.go:299-560): the final answer's branch and the bound's end the
// current work by writing the state (c.setAgentState(api.AgentStateDone); continue) that the
// step is guarded by (if c.AgentState() == api.AgentStateRunning), and the model's tool calls
// reach the helper that runs them through a field of the captured receiver
// (c.pendingFunctionCalls = …; c.DispatchToolCalls(ctx) ranging over it). Before, neither
// branch left the loop (no final answer, no bound) and the closure's store was not the
// receiver's state the helper reads: no entry at all.
func TestStateMachineLoop(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "stateloop.Agent.Run")
	if e == nil {
		t.Fatalf("stateloop.Agent.Run: want a run entry, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 99 {
		t.Fatalf("want the loop at agent.go:99, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if got := siteLines(l.ModelCalls); got != "agent.go:125" {
		t.Errorf("model calls %s, want agent.go:125", got)
	}
	if got := siteLines(l.ToolCalls); got != "agent.go:161" {
		t.Errorf("tool calls %s, want agent.go:161 (the helper's Invoke)", got)
	}
	if l.Bound == nil || l.Bound.Expr != "a.MaxIterations" || l.Bound.Pos.Line != 120 {
		t.Errorf("bound %+v, want a.MaxIterations at agent.go:120", l.Bound)
	}
	if l.OnBound == nil || l.OnBound.Kind != model.OnBoundSilent {
		t.Errorf("at bound %+v, want silent (the state goes to done, the loop waits for the next query)", l.OnBound)
	}
	if l.ParallelTools || l.ChecksCancel {
		t.Errorf("parallel %v cancel %v, want both false (ctx.Done only while waiting for a query)", l.ParallelTools, l.ChecksCancel)
	}
	checkExits(t, e, map[int]string{151: "started"})
}
