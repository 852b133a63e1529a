// Package toolerror defines an Analyzer that reports tool errors that are discarded.
//
// # Analyzer toolerror
//
// toolerror: report tool call errors that are discarded
//
// A tool failure should go back to the model as an error result (or end the turn when it is
// unrecoverable); it must not vanish (docs/model.md, "Layered failure"). When the error of a tool
// call is ignored, assigned to _, or assigned and never looked at on some path to a return, the
// model never learns the tool failed and the step records a success it did not have.
//
//	out, _ := tool.Call(ctx, args) // WRONG
//
//	out, err := tool.Call(ctx, args)
//	if err != nil {
//		out = "error: " + err.Error() // RIGHT: the model sees the failure
//	}
//
// A check that only tells one error from another is not a use: when the error of a tool call
// is tested (`if err != nil { if errors.Is(err, ErrDenied) { … } }`) and a path on which it is
// non-nil goes on to the next tool call or to a return without returning, wrapping or recording
// it, every other failure is recorded as a success. The search follows the control-flow graph
// with the branch conditions (go/cfg): the branch where the tested error matches handles it.
//
// A goroutine that runs a tool call (go func() { … }() in the step) has no caller to hand the
// error to: a bare return on a path where the error is non-nil and unused
// (`if err != nil { return }`) drops it too; record it as the call's result instead.
package toolerror
