package a

import (
	"context"

	"fw"
)

func noCheck(ctx context.Context, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ { // want `turn loop never checks cancellation between steps: a cancelled run keeps calling the model until maxSteps is reached`
		if _, err := m.Generate(ctx, nil); err != nil {
			return err
		}
	}
	return fw.ErrMaxSteps
}

func checks(ctx context.Context, m fw.Model, maxSteps int) error {
	for i := 0; i < maxSteps; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		m.Generate(ctx, nil)
	}
	return nil
}

func selects(ctx context.Context, maxSteps int) error {
	for i := 0; i < maxSteps; i++ {
		select {
		case <-ctx.Done():
			return context.Cause(ctx)
		default:
		}
		fw.Complete(ctx, "x")
	}
	return nil
}

func recursion(ctx context.Context, turn, max int) error { // want `turn recursion never checks cancellation`
	if turn >= max {
		return fw.ErrMaxSteps
	}
	fw.Complete(ctx, "x")
	return recursion(ctx, turn+1, max)
}

func noContext(m fw.Model) {
	for i := 0; i < 3; i++ {
		m.Generate(context.Background(), nil)
	}
}

func unbounded(ctx context.Context) { // reported by unboundedloop, not here
	for {
		fw.Complete(ctx, "x")
	}
}
