// Package completedonerror defines an Analyzer that reports runs marked completed on a path
// where a step's error was observed and dropped.
//
// # Analyzer completedonerror
//
// completedonerror: report completed written on a path where a model or tool error was dropped
//
// A run is completed only when its last step succeeded and no tool call of that step is
// unresolved (docs/model.md, invariant L5). When the error of a model call or tool call (or of a
// helper that makes one) is assigned and then, on some path, never looked at before the code
// writes the completed status, a failed step leaves its run completed: the parent/child status
// merge is missing.
//
//	out, err := tool.Call(ctx, args)
//	run.Status = StatusCompleted // WRONG: err is never checked on this path
//
//	out, err := tool.Call(ctx, args)
//	if err != nil {
//		return fail(run, err)
//	}
//	run.Status = StatusCompleted // RIGHT
//
// The check follows the control-flow graph (go/cfg), like lostcancel: any mention of the error
// variable counts as looking at it.
package completedonerror
