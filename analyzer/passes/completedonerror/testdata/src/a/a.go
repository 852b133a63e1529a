package a

import (
	"context"

	"fw"
)

func dropped(ctx context.Context, run *fw.Run, t fw.Tool) {
	out, err := t.Call(ctx, "x")
	run.Status = fw.Completed // want `run marked completed on a path where the error of tool call t.Call \(line 10\) is never checked`
	println(out, err)
}

func checked(ctx context.Context, run *fw.Run, t fw.Tool) error {
	_, err := t.Call(ctx, "x")
	if err != nil {
		run.Status = fw.Failed
		return err
	}
	run.Status = fw.Completed
	return nil
}

func oneBranch(ctx context.Context, run *fw.Run, m fw.Model, verbose bool) {
	msg, err := m.Generate(ctx, nil)
	if verbose {
		println(err.Error())
	}
	_ = msg
	run.Status = fw.Completed // want `error of model call m.Generate \(line 26\) is never checked`
}

func viaHelper(ctx context.Context, run *fw.Run, m fw.Model) {
	_, err := fw.Ask(ctx, m)
	err = nil
	run.Status = fw.Completed // want `error of model call fw.Ask`
	_ = err
}

func blank(ctx context.Context, run *fw.Run) {
	_, _ = fw.RunTool(ctx, "x")
	run.StopReason = fw.GoalReached
	run.Status = fw.Completed // want `error of tool call fw.RunTool`
}

func unrelated(ctx context.Context, run *fw.Run) {
	run.Status = fw.Completed
}
