package recognize_test

import "testing"

// TestOneLaunch: pysteplaunch (camel-ai==0.2.90 camel/agents/chat_agent.py:2864-2878, 3026-3036,
// 4037-4048). The reply is handed to a step method that runs the whole step as one task on a
// one-worker executor outside any loop (executor.submit(self._step_impl, reply), to put a
// timeout on it); the tools run one after another inside: one launch is no per-element
// parallel launch (before: parallel). Tools submitted one task per call (a comprehension of
// submits) stay parallel.
func TestOneLaunch(t *testing.T) {
	res := recognizeSrc(t, "pysteplaunch")
	for _, w := range []struct {
		entry    string
		parallel bool
	}{
		{"agent.Agent.run", false},
		{"agent.PoolAgent.run", true},
	} {
		e := srcEntry(res, w.entry)
		if e == nil || len(e.Loops) != 1 {
			t.Errorf("want entry %s with one loop, got %+v", w.entry, e)
			continue
		}
		if l := e.Loops[0]; len(l.ToolCalls) == 0 || l.ParallelTools != w.parallel {
			t.Errorf("%s: tools %+v parallel %v, want parallel %v", w.entry, l.ToolCalls, l.ParallelTools, w.parallel)
		}
	}
}
