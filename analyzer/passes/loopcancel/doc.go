// Package loopcancel defines an Analyzer that reports turn loops that never check
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
// A check counts only when every iteration's path passes it: a ctx.Done() in a retry backoff
// (only the failed attempts wait there), in one branch of the step, or in a helper that checks
// on some of its paths does not stop a run whose steps succeed. A context that is merely passed
// on to the model call is propagation, not a check: the run ends as a failed model call, not as
// cancelled.
//
// A loop without a bound is reported here too when it has a context: a bound does not make a
// run stoppable, and a cancellation check does not bound it (unboundedloop reports the missing
// bound).
//
// Retry loops around one model call (no tool calls; a pause or an exit on success between
// attempts) are reported too, as retry loops, when they wait between attempts (time.Sleep, a
// timer, a select, a backoff helper) or have no bound: a cancelled run keeps retrying, and
// sleeping, until the retry bound is reached. Wait with a select on ctx.Done() and a timer
// instead of time.Sleep. A bounded retry that never waits (three attempts in a row) is not
// reported: each attempt fails at once on the cancelled context and the loop ends.
package loopcancel
