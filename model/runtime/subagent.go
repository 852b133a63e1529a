package runtime

import (
	"context"
	"fmt"

	"github.com/lifeline-dev/lifeline/model"
)

// SubAgent returns a tool that delegates a task to another agent as a child run of the calling
// run (kind "subagent", parent_run_id the caller) in the same session. Its argument "task" is the
// child's input and its result the child's final text. Creating a run is a side effect: after a
// crash the tool's probe finds the child run of the interrupted call (resumed with the session)
// and waits for it instead of starting a second one.
func SubAgent(name string, agent *Agent) Tool { return &subAgentTool{name: name, agent: agent} }

type subAgentTool struct {
	name  string
	agent *Agent
}

func (t *subAgentTool) Name() string     { return t.name }
func (t *subAgentTool) SideEffect() bool { return true }

func (t *subAgentTool) Run(ctx context.Context, call Call) (string, error) {
	task, _ := call.Args["task"].(string)
	h, err := call.rt.Start(t.agent, RunSpec{Input: task, ParentRunID: call.RunID, Kind: "subagent", parentCall: call.ID})
	if err != nil {
		return "", fmt.Errorf("start sub-agent %s: %w", t.agent.Name, err)
	}
	return t.await(ctx, h)
}

func (t *subAgentTool) await(ctx context.Context, h *RunHandle) (string, error) {
	// Waiting for the child run is not work of this call: the clock may move meanwhile.
	defer parked(ctx)()
	select {
	case <-h.Done():
	case <-ctx.Done():
		h.Cancel()
		<-h.Done()
		return "", ctx.Err()
	}
	res := h.Result()
	if res.Status != model.StatusCompleted {
		if res.Status == "" || !res.Status.Terminal() {
			return "", fmt.Errorf("sub-agent run %s stopped before it ended", res.RunID)
		}
		return "", fmt.Errorf("sub-agent run %s ended %s (%s)", res.RunID, res.Status, res.StopReason)
	}
	return res.Text, nil
}

// Probe finds the child run the interrupted call started: done (with its result) once that run
// ends; not done when the call never started one.
func (t *subAgentTool) Probe(ctx context.Context, call Call) (string, bool, error) {
	rt := call.rt
	rt.mu.Lock()
	var child *runState
	for _, id := range rt.runOrder {
		if r := rt.runs[id]; r.parentCall == call.ID && r.parent == call.RunID {
			child = r
		}
	}
	var e *runExec
	if child != nil {
		e = rt.execs[child.id]
	}
	rt.mu.Unlock()
	switch {
	case child == nil:
		return "", false, nil
	case e == nil:
		rt.mu.Lock()
		res := child.result()
		rt.mu.Unlock()
		if !res.Status.Terminal() {
			return "", false, fmt.Errorf("child run %s is live but not running in this process", child.id)
		}
		if res.Status != model.StatusCompleted {
			return "", true, fmt.Errorf("sub-agent run %s ended %s (%s)", res.RunID, res.Status, res.StopReason)
		}
		return res.Text, true, nil
	}
	res, err := t.await(ctx, e.handle)
	return res, true, err
}
