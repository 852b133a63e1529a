package a

import (
	"context"

	"fw"
)

type submitTool struct{ run *fw.Run }

func (t *submitTool) Name() string { return "submit" }

func (t *submitTool) Call(ctx context.Context, args string) (string, error) {
	t.run.Status = fw.Completed // want `tool a.submitTool.Call writes terminal run status completed: only the runtime writes run status`
	return "ok", nil
}

type lookupTool struct{ run *fw.Run }

func (t *lookupTool) Name() string { return "lookup" }

func (t *lookupTool) Call(ctx context.Context, args string) (string, error) {
	if t.run.Status == fw.Completed { // a comparison is not a write
		return "", nil
	}
	t.run.Status = fw.Running // not terminal
	return "found", nil
}

func register(run *fw.Run) {
	fw.OnStep(func(ctx context.Context, r *fw.Run) {
		r.Status = fw.Failed // want `callback fw.Hook writes terminal run status failed`
	})
	_ = fw.Hooks{AfterStep: func(ctx context.Context, r *fw.Run) {
		r.Status = fw.Cancelled // want `callback fw.Hook writes terminal run status cancelled`
	}}
}

// runtimeLoop is the owner: it may write statuses.
func runtimeLoop(run *fw.Run) {
	run.Status = fw.Completed
}

//lifeline:tool
func approve(run *fw.Run) {
	//lifeline:ignore statusowner approval tool ends the run by design, reviewed
	run.Status = fw.Completed
}
