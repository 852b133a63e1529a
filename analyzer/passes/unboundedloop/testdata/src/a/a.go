package a

import (
	"context"
	"time"

	"fw"
)

func loopForever(ctx context.Context, m fw.Model) {
	for { // want `turn loop around fw.Model.Generate has no bound and no cancellation exit`
		msg, err := m.Generate(ctx, nil)
		if err != nil || len(msg.ToolCalls) == 0 {
			return
		}
	}
}

func bounded(ctx context.Context, m fw.Model) {
	for i := 0; i < 10; i++ {
		m.Generate(ctx, nil)
	}
}

func boundedInBody(ctx context.Context, maxSteps int) error {
	step := 0
	for {
		if step >= maxSteps {
			return fw.ErrMaxSteps
		}
		step++
		fw.Complete(ctx, "x")
	}
}

func cancellable(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			return
		}
		fw.Complete(ctx, "x")
	}
}

func viaHelper(ctx context.Context, m fw.Model) {
	for { // want `turn loop around fw.Model.Generate has no bound`
		fw.Ask(ctx, m)
	}
}

func recurse(ctx context.Context, m fw.Model) error { // want `turn recursion around fw.Model.Generate has no bound`
	msg, err := m.Generate(ctx, nil)
	if err != nil || len(msg.ToolCalls) == 0 {
		return err
	}
	return recurse(ctx, m)
}

func recurseBounded(ctx context.Context, m fw.Model, turn, max int) error {
	if turn+1 > max {
		return fw.ErrMaxSteps
	}
	if _, err := m.Generate(ctx, nil); err != nil {
		return err
	}
	return recurseBounded(ctx, m, turn+1, max)
}

func notATurnLoop(ctx context.Context, tools []fw.Tool) {
	for {
		for _, t := range tools {
			t.Call(ctx, "")
		}
	}
}

func ignored(ctx context.Context) {
	//lifeline:ignore unboundedloop the daemon runs until the process exits
	for {
		fw.Complete(ctx, "x")
	}
}

// retryForever retries one model call until it succeeds: a retry loop with no bound.
func retryForever(ctx context.Context, m fw.Model) *fw.Message {
	for { // want `retry loop around fw.Model.Generate has no bound and no cancellation exit: a model call that keeps failing is retried forever`
		out, err := m.Generate(ctx, nil)
		if err == nil {
			return out
		}
		time.Sleep(time.Second)
	}
}
