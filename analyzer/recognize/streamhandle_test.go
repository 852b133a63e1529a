package recognize_test

import "testing"

// TestStreamHandleStep: a run of one step behind a stream handle (shape streamhandle,
// agenticgokit@v0.5.5 v1beta/agent_impl.go:803 RunStream): the entry starts a goroutine that
// makes one model call, parses the tool calls of its text and runs them once, and returns a
// Stream, an interface whose Chunks() hands out the channel the caller ranges over. Its
// exits: not_started before the goroutine, started after. Before, RunStream was no entry: the
// handle was not taken for a stream (only channels and Next() iterators were), and the step,
// whose tools' results feed no next call (there is none), scored under the threshold.
func TestStreamHandleStep(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "streamhandle.Agent.RunStream")
	if e == nil {
		t.Fatalf("streamhandle.Agent.RunStream: want a run entry, got none (entries %d)", len(res.Entries))
	}
	if len(e.Loops) != 0 {
		t.Errorf("loops %+v, want none", e.Loops)
	}
	got := exitsByLine(e)
	for line, o := range map[int]string{82: "not_started", 85: "not_started", 117: "started"} {
		if got[line] != o {
			t.Errorf("exit at line %d: %q, want %q (all: %v)", line, got[line], o, got)
		}
	}
}
