package recognize_test

import "testing"

// TestDrainedStreamRun checks a synchronous wrapper that ranges over the event channel a
// streaming entry returns until the goroutine running the loop closes it (shape eventloop,
// docker/docker-agent pkg/runtime/loop.go Run around RunStream, vvoland/cagent@039447f
// loop.go:75-330): after the drain the run is over, so the wrapper's success return completes
// the run; before, the launch under go made it "started" though the run had ended. RunStream
// itself hands the channel back while the run goes on: started.
func TestDrainedStreamRun(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "eventloop.Runtime.Run")
	if e == nil {
		t.Fatalf("eventloop.Runtime.Run: want a run entry, got none")
	}
	checkExits(t, e, map[int]string{151: "failed (error)", 154: "completed (goal_reached)"})
	s := entry(res, "eventloop.Runtime.RunStream")
	if s == nil || len(s.Loops) != 1 || s.Loops[0].Pos.Line != 105 {
		t.Fatalf("eventloop.Runtime.RunStream: want one loop at runtime.go:105, got %+v", s)
	}
	checkExits(t, s, map[int]string{144: "started"})
}
