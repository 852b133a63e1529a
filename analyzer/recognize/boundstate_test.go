//go:build cgo

package recognize_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestBoundState checks that a return at the bound right after a call recording a state that
// names the limit (this._finishStream('max_turns'); return;) stops the run with that stop
// reason, and that the exit there keeps its outcome; and that a bound checked in a helper
// returning the enumeration member that names the limit stops the run with that member.
func TestBoundState(t *testing.T) {
	res := recognizeSrc(t, "boundstate")
	e := srcEntry(res, "Session.send")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("entry Session.send with one loop: %+v", e)
	}
	ob := e.Loops[0].OnBound
	if ob == nil || ob.Kind != model.OnBoundStopReason || ob.Value != "max_turns" || ob.StopReason != model.StopMaxTurns {
		t.Errorf("on bound %+v, want stop_reason max_turns", ob)
	}
	wantExits(t, e, map[int]string{22: "completed", 28: "completed"})

	x := srcEntry(res, "Executor.run")
	if x == nil || len(x.Loops) != 1 {
		t.Fatalf("entry Executor.run with one loop: %+v", x)
	}
	ob = x.Loops[0].OnBound
	if ob == nil || ob.Kind != model.OnBoundStopReason || ob.Value != "MAX_TURNS" || ob.StopReason != model.StopMaxTurns {
		t.Errorf("Executor.run: on bound %+v, want stop_reason MAX_TURNS", ob)
	}
}
