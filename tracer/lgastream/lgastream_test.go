package lgastream

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

const samples = "../../testdata/samples-py/langgraph-astream/"

var views = []string{".astream.jsonl", ".astream_v2.jsonl", ".astream_updates.jsonl", ".astream_values.jsonl", ".astream_messages.jsonl", ".astream_debug.jsonl"}

// TestSamples reads the astream output of testdata/samples-py/langgraph-astream (langgraph 1.2
// Python; resumes in a second process from a SQLite checkpointer): every mode's view gives the
// generator's truth, or, where the mode does not record it, what <name>.inferable.json says it
// shows; a resume is a resume run of the waiting run.
func TestSamples(t *testing.T) {
	n := tracertest.EachViewWith(t, samples+"*.expected.json", views, func(t *testing.T, v tracertest.View) {
		if Detect(v.Data) == 0 {
			t.Fatal("not detected")
		}
		evs := tracertest.DecodeClean(t, Decode, filepath.Base(v.Path), v.Data)
		tree := tracertest.AssertTree(t, evs, v.Want)
		runs := tree.Sessions[0].Runs
		for i := 1; i < len(runs); i++ {
			if runs[i-1].Status == model.StatusWaiting && (runs[i].Kind != "resume" || runs[i].ParentRunID != runs[i-1].ID) {
				t.Errorf("run %d: kind %q parent %q, want a resume of %s", i, runs[i].Kind, runs[i].ParentRunID, runs[i-1].ID)
			}
		}
		if (strings.Contains(v.Path, "debug") || strings.Contains(v.Path, "_v2")) && strings.Contains(string(v.Data), `"thread_id"`) && tree.Sessions[0].ID != "thread-"+v.Scenario {
			t.Errorf("session %q, want the thread id", tree.Sessions[0].ID)
		}
	})
	if n != 66 {
		t.Fatalf("%d views, want 66", n)
	}
}

// TestJSSamples reads LangGraph JS graph.stream() output (testdata/traces/langgraph/gen-stream.mjs:
// [mode, chunk] pairs of four modes, and the updates chunks alone; dumpd() message envelopes;
// pauses resumed in a second process from the MemorySaver's state).
func TestJSSamples(t *testing.T) {
	n := tracertest.EachViewWith(t, "../../testdata/traces/langgraph/1*_stream_*.expected.json", []string{".graph_stream.jsonl", ".graph_stream_updates.jsonl"}, func(t *testing.T, v tracertest.View) {
		if Detect(v.Data) == 0 {
			t.Fatal("not detected")
		}
		evs := tracertest.DecodeClean(t, Decode, filepath.Base(v.Path), v.Data)
		tree := tracertest.AssertTree(t, evs, v.Want)
		runs := tree.Sessions[0].Runs
		for i := 1; i < len(runs); i++ {
			if runs[i-1].Status == model.StatusWaiting && (runs[i].Kind != "resume" || runs[i].ParentRunID != runs[i-1].ID) {
				t.Errorf("run %d: kind %q parent %q, want a resume of %s", i, runs[i].Kind, runs[i].ParentRunID, runs[i-1].ID)
			}
		}
	})
	if n != 10 {
		t.Fatalf("%d views, want 10", n)
	}
}

// TestShapes: dumpd-style messages, a (namespace, mode, chunk) triple of a subgraph (skipped), a
// breakpoint's empty __interrupt__, and two invocations told apart by a model call after a final
// answer.
func TestShapes(t *testing.T) {
	in := strings.Join([]string{
		`[[], "updates", {"agent": {"messages": [{"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "AIMessage"], "kwargs": {"content": "", "id": "m1", "tool_calls": [{"id": "c1", "name": "t", "args": {}}]}}]}}]`,
		`[["sub:1"], "updates", {"inner": {"messages": [{"type": "ai", "id": "x", "content": "inner"}]}}]`,
		`[[], "updates", {"__interrupt__": []}]`,
		`[[], "updates", {"tools": {"messages": [{"type": "tool", "id": "t1", "tool_call_id": "c1", "status": "success", "content": "ok"}]}}]`,
		`[[], "updates", {"agent": {"messages": [{"type": "ai", "id": "m2", "content": "done"}]}}]`,
		`[[], "updates", {"agent": {"messages": [{"type": "ai", "id": "m3", "content": "again"}]}}]`,
	}, "\n") + "\n"
	evs := tracertest.DecodeClean(t, Decode, "shapes.jsonl", []byte(in))
	// the same as (namespace, chunk) pairs of one mode (subgraphs=True)
	var pairs []string
	for _, l := range strings.Split(strings.TrimSpace(in), "\n") {
		i := strings.Index(l, `"updates", `)
		pairs = append(pairs, l[:i]+l[i+len(`"updates", `):])
	}
	evs2 := tracertest.DecodeClean(t, Decode, "pairs.jsonl", []byte(strings.Join(pairs, "\n")+"\n"))
	if a, b := model.Project(evs).Summarize(), model.Project(evs2).Summarize(); a != b {
		t.Errorf("(ns, chunk) pairs read as %+v, (ns, mode, chunk) as %+v", b, a)
	}
	tree := model.Project(evs)
	s := tree.Summarize()
	if s.Runs != 3 || s.ModelCalls != 3 || s.ToolCalls != 1 || s.Steps != 4 {
		t.Fatalf("%+v, want 3 runs (paused, resumed, new input), 3 model calls, 1 tool call, 4 steps (the resume runs the pending call in a tool-only step)", s)
	}
	runs := tree.Sessions[0].Runs
	if runs[0].Status != model.StatusWaiting || runs[1].Kind != "resume" || runs[2].Kind == "resume" || runs[2].Status != model.StatusCompleted {
		t.Errorf("runs %s/%s, %s/%s, %s/%s: want waiting, a completed resume, a completed new run", runs[0].Status, runs[0].Kind, runs[1].Status, runs[1].Kind, runs[2].Status, runs[2].Kind)
	}
}

// TestMalformed: a line that is no chunk is reported with its number and the rest is read.
func TestMalformed(t *testing.T) {
	tracertest.AssertMalformed(t, Decode, []tracertest.BadCase{
		{Name: "not json", Bad: "{bad\n", Want: "invalid character"},
		{Name: "number", Bad: "42\n", Want: "expected an astream chunk"},
		{Name: "bad pair", Bad: `["updates", 7]` + "\n", Want: "updates chunk"},
	}, func(bad string) string {
		return `{"agent": {"messages": [{"type": "ai", "id": "m1", "content": "", "tool_calls": [{"id": "c1", "name": "t"}]}]}}` + "\n" + bad +
			`{"tools": {"messages": [{"type": "tool", "id": "t1", "tool_call_id": "c1", "content": "ok"}]}}` + "\n" +
			`{"agent": {"messages": [{"type": "ai", "id": "m2", "content": "done"}]}}` + "\n"
	}, func(s model.Summary) bool { return s.ModelCalls == 2 && s.ToolCalls == 1 })
	b, _ := os.ReadFile(samples + "01_multi_step_tools.astream.jsonl")
	tracertest.AssertTorn(t, Decode, b[:len(b)-30])
}

func FuzzDecode(f *testing.F) {
	tracertest.FuzzSeeds(f, samples+"0[46]_*.astream_*.jsonl", 2000)
	tracertest.FuzzSeeds(f, samples+"12_*.astream.jsonl", 3000)
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, Decode, "fuzz.jsonl", b)
		Detect(b)
	})
}
