package a

import (
	"context"
	"errors"
	"time"

	"fw"
)

// Run drives the framework loop: it reaches it through the fact on fw.Loop.
func Run(ctx context.Context, m fw.Model) error { // want Run:`lifecycle\(model cancel loops=1 runs\)`
	return fw.Loop(ctx, m, 5)
}

func helper(ctx context.Context) { // want helper:`lifecycle\(model\)`
	fw.Complete(ctx, "x")
}

// Start runs the loop in a goroutine it starts: it runs the loop.
func Start(ctx context.Context, m fw.Model) { // want Start:`lifecycle\(model cancel loops=1 runs\)`
	go func() {
		_ = fw.Loop(ctx, m, 5)
	}()
}

// Later hands back what fw.Build built: it runs nothing itself.
func Later(m fw.Model) func(ctx context.Context) error { // want Later:`lifecycle\(model cancel loops=1\)`
	return fw.Build(m)
}

// retry retries one model call with a pause: a retry loop is not a turn loop, so the fact
// has no loop.
func retry(ctx context.Context, m fw.Model) (*fw.Message, error) { // want retry:`lifecycle\(model\)`
	for i := 0; i < 3; i++ {
		out, err := fw.Ask(ctx, m)
		if err == nil {
			return out, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, errors.New("retries exhausted")
}
