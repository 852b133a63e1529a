//go:build cgo

package recognize_test

import (
	"strings"
	"testing"
)

// TestSingleCallRun: a single-shot agent with no turn loop (atomic-agents==1.1.11
// atomic_agents/agents/base_agent.py:148-260, shape pysinglecall): BaseAgent.run reaches one
// provider chat call (self.client.chat.completions.create, in get_response) outside any
// loop and returns its reply; run_async streams one call. Each is a run entry with no loop,
// its return completed, the turn id its memory mints among its ids. The batch over a list
// (translate_all) and the REPL calling agent.run once per typed line (chat_loop) are no runs.
// Before, no entry was mapped: entries needed a turn loop.
func TestSingleCallRun(t *testing.T) {
	res := recognizeSrc(t, "pysinglecall")
	e := srcEntry(res, "BaseAgent.run")
	if e == nil {
		t.Fatalf("no entry BaseAgent.run: %+v", res.Entries)
	}
	if len(e.Loops) != 0 {
		t.Errorf("BaseAgent.run loops %+v, want none", e.Loops)
	}
	wantExits(t, e, map[int]string{37: "completed"})
	minted := false
	for _, id := range e.IDs {
		minted = minted || strings.HasSuffix(id.Pos.File, "memory.py") && id.Pos.Line == 13 && id.Kind == "minted"
	}
	if !minted {
		t.Errorf("BaseAgent.run ids %+v, want the turn id minted at memory.py:13", e.IDs)
	}
	if srcEntry(res, "BaseAgent.run_async") == nil {
		t.Errorf("no entry BaseAgent.run_async: %+v", res.Entries)
	}
	for _, x := range res.Entries {
		for _, bad := range []string{"translate_all", "chat_loop", "get_response", "AgentMemory"} {
			if strings.Contains(x.Func, bad) {
				t.Errorf("entry %s: no run of its own", x.Func)
			}
		}
	}
}

// TestAwaitedCallback: a callback handed to a callee the program does not hold runs before the
// call is over when the caller awaits the call (await oc.traceContext.withSpan(span, () =>
// generateText({…})), @voltagent/core@2.10.0 dist/index.js:31567, shape jsawaitedcb): the run
// it reaches is not left running, so the bail answer returned after it (31850) is completed,
// not started. A callback handed to an unknown callee without an await (emitter.on) still
// starts the run in the background.
func TestAwaitedCallback(t *testing.T) {
	res := recognizeSrc(t, "jsawaitedcb")
	e := srcEntry(res, "Agent.generateText")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("entry Agent.generateText with one loop: %+v", res.Entries)
	}
	wantExits(t, e, map[int]string{39: "completed", 43: "completed"})
	if bg := srcEntry(res, "Agent.startInBackground"); bg != nil {
		wantExits(t, bg, map[int]string{52: "started"})
	}
}
