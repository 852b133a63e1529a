//go:build cgo

package recognize_test

import "testing"

// TestStatusBeforeReturn checks that a bare return right after a call of the set handing over
// a status (self._set_status(RunStatus.error); return, this._finishStream("failed"); return;)
// takes its outcome from that status (also in an arm of a switch), and that a logger's words (logger.error("failed");
// return) change nothing.
func TestStatusBeforeReturn(t *testing.T) {
	res := recognizeSrc(t, "statusret")
	for _, w := range []struct {
		entry string
		exits map[string]string // file:line → outcome
	}{
		{"run.Agent.run", map[string]string{"run.py:31": "failed", "run.py:35": "completed", "run.py:38": "completed"}},
		{"stream.StreamRun.run", map[string]string{"stream.ts:21": "failed", "stream.ts:32": "failed", "stream.ts:36": "completed"}},
	} {
		wantEntryExits(t, res, w.entry, w.exits)
	}
}
