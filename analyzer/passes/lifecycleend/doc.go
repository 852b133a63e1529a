// Package lifecycleend defines an Analyzer that reports lifecycle spans (run, turn, step, model
// or tool call) that are started but not ended on every path.
//
// # Analyzer lifecycleend
//
// lifecycleend: report lifecycle starts not ended on every path
//
// Every start has exactly one end (docs/model.md, invariant L3). When a function starts a run,
// turn, step or call span and some path, typically an early error return, leaves without ending
// it, the span stays open: timelines show a step that never finished, and the parent's interval
// no longer contains its children.
//
//	ctx, span := tracer.Start(ctx, "step")
//	resp, err := model.Generate(ctx, msgs)
//	if err != nil {
//		return err // WRONG: span is never ended on this path
//	}
//	span.End()
//
//	ctx, span := tracer.Start(ctx, "step")
//	defer span.End() // RIGHT (the suggested fix)
//
// Starts are calls of functions bound to the span_start role: OpenTelemetry's Tracer.Start
// (built in), a profile rule, or a //lifeline:span-start [EndMethod] directive. Like lostcancel,
// the check follows the control-flow graph and counts any mention of the span variable (a
// defer, passing it on, returning it) as ending it.
//
// Storing the span in a map, a slice or an array (spans[call.ID] = span, to end it when that
// call's result arrives) is not ending it: after the store, the paths are followed on, and
// ending an element of the container (spans[id].End(), s := spans[id]; s.End(), a range over
// it that ends each) or testing its length (if len(spans) == 0 { return nil }) ends them; a
// return reached otherwise (the cancellation return of a loop that starts one span per tool
// call) leaves the pending spans open.
//
// A method call whose name holds Start and whose result has the method named the same with End
// in its place (rm, err := cm.OnChainStart(ctx, in) … rm.OnChainEnd(ctx, out), a callback
// manager's run) is a start too, ended by that pair or any other use of rm (rm.OnChainError).
// When the start also returns an error, the path on which that error was tested non-nil is the
// start's failure: nothing was opened there.
package lifecycleend
