//go:build cgo

package recognize_test

import (
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestElementAlias checks that an element of the reply's tool calls renamed as it is
// (const functionToolCall = tool_call) is still the element whose name selects the tool: the
// recursion of chat is a turn recursion, its model call the completion, its tool the plugin
// the name selects.
func TestElementAlias(t *testing.T) {
	res := recognizeSrc(t, "elemalias")
	e := srcEntry(res, "Engine.chat")
	if e == nil {
		t.Fatalf("no entry Engine.chat (entries %v)", res.Entries)
	}
	if len(e.Loops) != 1 || e.Loops[0].Kind != model.LoopRecursion || e.Loops[0].Pos.Line != 22 {
		t.Fatalf("loops %v, want the recursion of chat at 22", e.Loops)
	}
	l := e.Loops[0]
	if got := lines(l.ModelCalls); len(got) != 1 || got[0] != 24 {
		t.Errorf("model calls %v, want 24", got)
	}
	tool := false
	for _, tc := range l.ToolCalls {
		tool = tool || tc.Pos.Line == 19 || tc.Pos.Line == 35
	}
	if !tool {
		t.Errorf("tool calls %v, want the plugin's execute (19, via 35)", lines(l.ToolCalls))
	}
	wantExits(t, e, map[int]string{50: "propagated", 52: "completed"})
}
