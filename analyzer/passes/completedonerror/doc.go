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
//
// A run entry's success return is a completed write too: in a function that holds a turn loop
// and returns an error, a `return result, nil` reached on a path where the error of a model or
// tool call of the loop was seen non-nil (`if stop || err != nil { break }`) and used for nothing
// else ends a failed step's run as completed. That search keeps one bit of path state on the
// control-flow graph (whether the branch taken says the error is non-nil); returning, wrapping,
// logging or storing the error handles it.
//
// A model call whose reply comes over a channel with its failure in a field (resp :=
// <-m.Stream(ctx, msgs), or a receive from a channel a model call returned, of a struct with
// one error field) is checked the same way: a `return result, nil` reached after the receive
// on a path that never reads the reply's error field (nor hands the reply on whole) ends a
// failed model call's run as completed.
//
// A later model call of the loop on the path is the next step: what it decides supersedes an
// error dropped before it (L5 asks that the last step succeeded; the drop itself is toolerror's
// finding).
package completedonerror
