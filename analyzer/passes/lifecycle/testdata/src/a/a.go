package a

import (
	"context"

	"fw"
)

// Run drives the framework loop: it reaches it through the fact on fw.Loop.
func Run(ctx context.Context, m fw.Model) error { // want Run:`lifecycle\(model cancel loops=1\)`
	return fw.Loop(ctx, m, 5)
}

func helper(ctx context.Context) { // want helper:`lifecycle\(model\)`
	fw.Complete(ctx, "x")
}
