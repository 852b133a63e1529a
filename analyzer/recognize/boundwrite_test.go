package recognize_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestBoundWritesReply checks a condition-less loop whose bound hands the last reply to a
// helper that writes it out (shape boundwrite, github.com/yomorun/yomo@v1.20.6
// pkg/bridge/ai/chat.go:115-118 and endCall, chat.go:182-194: if chatCtx.callTimes == maxCalls
// { return endCall(gctx, chatCtx, resp, w, tracer) }, endCall returning nil unless writing
// fails). Before, the helper's error returned at the bound made the bound an error; the loop
// ends quietly on its limit.
func TestBoundWritesReply(t *testing.T) {
	res := recognizeGoShapes(t)
	e := entry(res, "boundwrite.Bridge.Chat")
	if e == nil {
		t.Fatalf("want the run entry boundwrite.Bridge.Chat, got none")
	}
	if len(e.Loops) != 1 || e.Loops[0].Pos.Line != 36 {
		t.Fatalf("want the loop at chat.go:36, got %+v", e.Loops)
	}
	l := e.Loops[0]
	if l.Bound == nil || l.Bound.Expr != "maxCalls" || l.Bound.Default != "14" {
		t.Errorf("bound %+v, want maxCalls (default 14)", l.Bound)
	}
	if l.OnBound == nil || l.OnBound.Kind != model.OnBoundSilent || l.OnBound.Pos.Line != 42 {
		t.Errorf("at bound %+v, want silent at chat.go:42", l.OnBound)
	}
}
