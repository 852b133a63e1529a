package a

import (
	"context"
	"errors"
	"time"

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

// retryOnContinue retries on error with continue: the loop iterates again only when the attempt
// failed.
func retryOnContinue(ctx context.Context, input string) *fw.Run {
	for {
		run, err := fw.StartRun(ctx, fw.RunOptions{Input: input}) // want `retry starts a new run without ParentRunID and Attempt`
		if err != nil {
			continue
		}
		return run
	}
}

// retryUntilSuccessElse leaves the loop in the else branch of a failure test.
func retryUntilSuccessElse(ctx context.Context, input string) (run *fw.Run) {
	for i := 0; i < 3; i++ {
		var err error
		if run, err = fw.StartRun(ctx, fw.RunOptions{Input: input, Attempt: i + 1}); err != nil && i < 2 { // want `retry starts a new run without ParentRunID`
			println("again")
		} else {
			break
		}
	}
	return run
}

// retryOnWait retries when the started run failed: the error comes from the run's own result.
func retryOnWait(ctx context.Context, input string) error {
	for i := 0; i < 3; i++ {
		run, _ := fw.StartRun(ctx, fw.RunOptions{Input: input}) // want `retry starts a new run without ParentRunID and Attempt`
		if err := wait(ctx, run); err == nil {
			return nil
		}
	}
	return nil
}

// retryWhileFailing repeats while the loop condition sees the attempt's error.
func retryWhileFailing(ctx context.Context, input string) {
	var err error
	for n := 0; n == 0 || err != nil; n++ {
		_, err = fw.StartRun(ctx, fw.RunOptions{Input: input}) // want `retry starts a new run without ParentRunID and Attempt`
	}
}

// retryOnSentinel retries on one kind of error.
func retryOnSentinel(ctx context.Context, input string) *fw.Run {
outer:
	for {
		for range 1 {
			run, err := fw.StartRun(ctx, fw.RunOptions{Input: input}) // want `retry starts a new run without ParentRunID and Attempt`
			if errors.Is(err, errBusy) {
				continue outer
			}
			return run
		}
	}
}

var errBusy = errors.New("busy")

func wait(ctx context.Context, run *fw.Run) error { return nil }

// crashLoop restarts from a fresh state per iteration and stops when nothing crashed: each
// iteration's start is a new run under test, not a retry of the previous one (its outcome is
// not what decides whether the loop goes on).
func crashLoop(ctx context.Context, input string, crashed func() bool) {
	for k := 1; ; k++ {
		run, err := fw.StartRun(ctx, fw.RunOptions{Input: input})
		if err == nil {
			wait(ctx, run)
		}
		if !crashed() {
			return
		}
	}
}

// failFast leaves the loop on the first failed start: nothing is retried.
func failFast(ctx context.Context, inputs []string) error {
	for life := 0; ; life++ {
		if life == 0 {
			_, err := fw.StartRun(ctx, fw.RunOptions{Input: inputs[0]})
			if err != nil && ctx.Err() == nil {
				return err
			}
		}
		if life > 3 {
			return nil
		}
	}
}

// batch starts one run per input: a new run for each item, not a retry.
func batch(ctx context.Context, inputs []string) []*fw.Run {
	var runs []*fw.Run
	for _, in := range inputs {
		run, err := fw.StartRun(ctx, fw.RunOptions{Input: in})
		if err != nil {
			return nil
		}
		runs = append(runs, run)
	}
	return runs
}

// batchSkipFailed starts one run per input and goes on to the next input when one fails:
// continue after a failure moves to a different input, but it is still the loop iterating on
// the attempt's error. A range over inputs starts a run per element, not the same run again.
func batchSkipFailed(ctx context.Context, inputs []string) (n int) {
	for _, in := range inputs {
		if _, err := fw.StartRun(ctx, fw.RunOptions{Input: in}); err != nil {
			continue
		}
		n++
	}
	return n
}

// otherErrorBranch starts in the error branch of something that is not a run.
func otherErrorBranch(ctx context.Context, input string, load func() error) (*fw.Run, error) {
	if err := load(); err != nil {
		return fw.StartRun(ctx, fw.RunOptions{Input: "default"})
	}
	return fw.StartRun(ctx, fw.RunOptions{Input: input})
}

// startAfterSuccess starts a second run when the first succeeded: a follow-up, not a retry.
func startAfterSuccess(ctx context.Context, input string) (*fw.Run, error) {
	first, err := fw.StartRun(ctx, fw.RunOptions{Input: input})
	if err == nil {
		return fw.StartRun(ctx, fw.RunOptions{Input: first.ID})
	}
	return nil, err
}

// repl starts a run for each line it reads and goes on to the next line when one fails: the
// work changes every iteration, so nothing is retried.
func repl(ctx context.Context, read func() (string, bool)) {
	for {
		line, ok := read()
		if !ok {
			return
		}
		run, err := fw.StartRun(ctx, fw.RunOptions{Input: line}) // no finding: new work
		if err != nil {
			continue
		}
		_ = run
	}
}

// byIndex starts the run of each input, indexed by the loop counter.
func byIndex(ctx context.Context, inputs []string) {
	for i := 0; i < len(inputs); i++ {
		if _, err := fw.StartRun(ctx, fw.RunOptions{Input: inputs[i]}); err != nil {
			continue
		}
	}
}

// retryWithTimeout gives each attempt its own deadline: the context changes, the work does not.
func retryWithTimeout(ctx context.Context, input string) *fw.Run {
	for attempt := range 3 {
		actx, cancel := context.WithTimeout(ctx, time.Duration(attempt+1)*time.Second)
		run, err := fw.StartRun(actx, fw.RunOptions{Input: input, Attempt: attempt + 1}) // want `retry starts a new run without ParentRunID`
		cancel()
		if err == nil {
			return run
		}
	}
	return nil
}
