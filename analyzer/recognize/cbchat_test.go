package recognize_test

import (
	"testing"
)

// TestCallbackClientLoop checks an agent loop embedded in a CLI that calls a concrete SDK
// client method with a streaming callback (shape cbchat, github.com/ollama/ollama@v0.17.4
// x/cmd/run.go:164-513 and api/client.go:293-300): the callback written before the loop
// collects each part's tool calls into a captured slice the loop tests after the call. The
// model call is the loop's call of the client method (cbchat/chat.go:70), not the client's
// internal stream call that hands the bytes to its own literal (api/client.go:96); the
// consecutive-error counter reset after each successful call is a retry limit, not the
// loop's bound; a model call failing with context.Canceled that returns nil, nil is a cancel.
func TestCallbackClientLoop(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "cbchat.Chat")
	if e == nil {
		t.Fatalf("cbchat.Chat: want a run entry, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 68 {
		t.Fatalf("want the loop at chat.go:68, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if got := siteLines(l.ModelCalls); got != "chat.go:70" {
		t.Errorf("model calls %s, want chat.go:70 (the loop's call of the client method)", got)
	}
	if got := siteLines(l.ToolCalls); got != "chat.go:39" {
		t.Errorf("tool calls %s, want chat.go:39", got)
	}
	if l.Bound != nil {
		t.Errorf("bound %+v, want none (consecutiveErrors is reset after every successful call)", l.Bound)
	}
	if l.ParallelTools {
		t.Errorf("parallel tools, want sequential")
	}
	checkExits(t, e, map[int]string{72: "cancelled (cancelled)", 78: "failed (error)", 105: "completed (goal_reached)"})
	if r := entry(res, "cbchat.Interactive"); r == nil {
		t.Errorf("cbchat.Interactive: want a run entry (it runs Chat's loop)")
	}
}
