//go:build cgo

package recognize_test

import "testing"

// TestStepRethrow checks the exits of a turn loop whose try is inside the loop, around the
// step: a handler that re-raises what it caught ends the run failed (the step's error is no
// callee's outcome handed on), and a return under a test that the caught error is an abort
// (err.message === "AbortError", err.name === 'AbortError') ends it cancelled.
func TestStepRethrow(t *testing.T) {
	res := recognizeSrc(t, "steprethrow")
	for _, w := range []struct {
		entry string
		exits map[string]string // file:line → outcome
	}{
		{"agent.Agent.run", map[string]string{"agent.py:44": "failed"}},
		{"agent.Agent.run", map[string]string{"agent.ts:78": "cancelled", "agent.ts:80": "failed", "agent.ts:85": "completed"}},
	} {
		wantEntryExits(t, res, w.entry, w.exits)
	}
}
