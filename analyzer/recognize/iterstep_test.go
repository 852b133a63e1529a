package recognize_test

import "testing"

// TestLoopStepErrorFails checks a turn loop that hands each iteration to a step method
// returning only an error (shape iterstep, henomis/lingoose@v0.3.0 assistant/assistant.go:97-101:
// `err = a.runIteration(ctx, i); if err != nil { return err }`, runIteration reaching the
// model call and the tools through the provider's Generate). The step's error returned from
// the body of the loop the entry holds ends this run: failed. Before, the return was read as
// handing back a callee's outcome (propagated), as if runIteration were a run of its own.
func TestLoopStepErrorFails(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "iterstep.Assistant.Run")
	if e == nil {
		t.Fatalf("iterstep.Assistant.Run: want a run entry, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 113 {
		t.Fatalf("want the loop at assistant.go:113, got %+v", e.Loops)
	}
	checkExits(t, e, map[int]string{110: "not_started", 116: "failed (error)"})
}
