package a

import (
	"context"

	"fw"
)

func retryLoop(ctx context.Context, input string) (*fw.Run, error) {
	var err error
	for i := 0; i < 3; i++ {
		var run *fw.Run
		run, err = fw.StartRun(ctx, fw.RunOptions{Input: input}) // want `retry starts a new run without ParentRunID and Attempt`
		if err == nil {
			return run, nil
		}
	}
	return nil, err
}

func retryOnError(ctx context.Context, input string) (*fw.Run, error) {
	run, err := fw.StartRun(ctx, fw.RunOptions{Input: input})
	if err != nil {
		return fw.StartRun(ctx, fw.RunOptions{Input: input, ParentRunID: run.ID}) // want `retry starts a new run without Attempt`
	}
	return run, nil
}

func goodRetry(ctx context.Context, input string) (*fw.Run, error) {
	parent := ""
	for attempt := 1; attempt <= 3; attempt++ {
		run, err := fw.StartRun(ctx, fw.RunOptions{Input: input, ParentRunID: parent, Attempt: attempt})
		if err == nil {
			return run, nil
		}
		parent = run.ID
	}
	return nil, nil
}

func firstRun(ctx context.Context, input string) (*fw.Run, error) {
	return fw.StartRun(ctx, fw.RunOptions{Input: input}) // not a retry
}
