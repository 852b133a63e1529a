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
package lifecycleend
