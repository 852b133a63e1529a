package a

import (
	"context"

	"fw"
)

func overwrite(ctx context.Context, run *fw.Run) {
	if ctx.Err() != nil {
		run.StopReason = fw.Cancel
	}
	run.StopReason = fw.GoalReached // want `stop reason goal_reached overwrites cancelled \(set on line 11\), which has higher priority`
}

func guarded(ctx context.Context, run *fw.Run) {
	if ctx.Err() != nil {
		run.StopReason = fw.Cancel
	}
	if run.StopReason == "" {
		run.StopReason = fw.GoalReached
	}
}

func raise(run *fw.Run) {
	run.StopReason = fw.MaxSteps
	run.StopReason = fw.ToolError // higher: fine
}

func separate(a, b *fw.Run) {
	a.StopReason = fw.Cancel
	b.StopReason = fw.GoalReached // another run
}

func exclusive(failed bool, run *fw.Run) {
	if failed {
		run.StopReason = fw.ToolError
	} else {
		run.StopReason = fw.GoalReached
	}
}
