// Package loopcancel defines an Analyzer that reports bounded turn loops that never check
// cancellation between steps.
//
// # Analyzer loopcancel
//
// loopcancel: report turn loops that never check cancellation between steps
//
// Between two steps is the safe point to stop (docs/model.md, "Layered failure"). A turn loop
// that has a context in scope but never looks at ctx.Done(), ctx.Err() or context.Cause keeps
// calling the model after the run was cancelled, until its bound is reached or a provider call
// happens to fail with the cancelled context, and the run then ends as failed instead of
// cancelled.
//
//	for i := 0; i < maxSteps; i++ { // WRONG
//		resp, err := model.Generate(ctx, msgs)
//
//	for i := 0; i < maxSteps; i++ { // RIGHT
//		if err := ctx.Err(); err != nil {
//			return nil, err // the run ends cancelled
//		}
//		resp, err := model.Generate(ctx, msgs)
//
// Loops without a bound are reported by unboundedloop instead.
//
// Retry loops around one model call (no tool calls; a pause or an exit on success between
// attempts) are reported too, as retry loops: a cancelled run keeps retrying, and sleeping,
// until the retry bound is reached. Wait with a select on ctx.Done() and a timer instead of
// time.Sleep.
package loopcancel
