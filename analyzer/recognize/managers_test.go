package recognize_test

import (
	"path/filepath"
	"testing"
)

// TestManagers: pymanagers (swarms==16.0.3 structs/agent.py, agents/llm_manager.py,
// agents/tool_manager.py, tools/base_tool.py). The turn loop `while self.max_loops == "auto"
// or loop_count < self.max_loops` (default 1) reaches the model through a manager object the
// agent builds with itself (LLMManager(agent=self) → agent.llm.run) and hands the reply to
// another (ToolManager(agent=self).handle_tool_calls), whose helpers, six calls down, look
// each call's function up by the name read with call.get("name") and run it in a thread pool;
// the executor is a field of the agent only the tool manager writes (agent.tool_struct =
// BaseTool(...)); the loop leaves only on a user stopping condition. Not model calls: the
// external transform whose result only becomes the model call's task, nor the filter of the
// reply's calls inside the tool manager; not a turn loop: the for-range retry of the tools.
func TestManagers(t *testing.T) {
	res := recognizeSrc(t, "pymanagers")
	e := srcEntry(res, "Agent.run")
	if e == nil || len(e.Loops) != 1 {
		t.Fatalf("want entry Agent.run with one loop, got %+v", e)
	}
	l := e.Loops[0]
	if l.Pos.Line != 42 || filepath.Base(l.Pos.File) != "agent.py" {
		t.Errorf("loop at %s:%d, want agent.py:42", l.Pos.File, l.Pos.Line)
	}
	if b := l.Bound; b == nil || b.Expr != "self.max_loops" || b.Default != "1" {
		t.Errorf("bound %+v, want self.max_loops default 1", b)
	}
	if len(l.ModelCalls) != 1 || l.ModelCalls[0].Pos.Line != 49 || filepath.Base(l.ModelCalls[0].Pos.File) != "agent.py" {
		t.Errorf("model calls %+v, want only self.call_llm at agent.py:49", l.ModelCalls)
	}
	tool := false
	for _, c := range l.ToolCalls {
		tool = tool || c.Pos.Line == 53 && filepath.Base(c.Pos.File) == "agent.py"
	}
	if !tool {
		t.Errorf("tool calls %+v, want tool_manager.handle_tool_calls at agent.py:53", l.ToolCalls)
	}
	if !l.ParallelTools {
		t.Errorf("tools sequential, want parallel (ThreadPoolExecutor submit per call)")
	}
	for _, x := range res.Loops {
		if filepath.Base(x.Map.Pos.File) != "agent.py" {
			t.Errorf("invented turn loop %s at %s:%d", x.Map.Func, x.Map.Pos.File, x.Map.Pos.Line)
		}
	}
}
