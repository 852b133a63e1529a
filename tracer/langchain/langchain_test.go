package langchain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

func pick(t *testing.T, b []byte) tracertest.DecodeFunc {
	t.Helper()
	if DetectMultipart(b) > 0 {
		return DecodeMultipart
	}
	return tracertest.Pick(t, b, "langchain", tracertest.Format{Detect: DetectRuns, Decode: DecodeRuns}, tracertest.Format{Detect: DetectEvents, Decode: DecodeEvents})
}

// TestSamples asserts the README ground truth of the three views of
// testdata/samples/langgraph/01_react_multi_step.
func TestSamples(t *testing.T) {
	want := tracertest.Expected{Summary: model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 3, ModelCalls: 3, ToolCalls: 3},
		RunsDetail: tracertest.Completed(1)}
	views, _ := filepath.Glob("../../testdata/samples/langgraph/01_react_multi_step.*")
	if len(views) != 3 {
		t.Fatalf("views = %v", views)
	}
	for _, v := range views {
		t.Run(filepath.Base(v), func(t *testing.T) {
			b, err := os.ReadFile(v)
			if err != nil {
				t.Fatal(err)
			}
			evs := tracertest.DecodeClean(t, pick(t, b), filepath.Base(v), b)
			tree := tracertest.AssertTree(t, evs, want)
			steps := tree.Sessions[0].Runs[0].Turns[0].Steps
			if len(steps) == 3 && len(steps[1].ToolCalls) != 2 {
				t.Errorf("step 2 has %d tool calls, want the 2 parallel ones", len(steps[1].ToolCalls))
			}
			if tree.Sessions[0].ID != "thread-01" {
				t.Errorf("session = %s, want thread-01", tree.Sessions[0].ID)
			}
			if strings.Contains(v, "stream_events") != tree.Timeless {
				t.Errorf("timeless = %v for %s", tree.Timeless, v)
			}
		})
	}
}

// TestTraces walks testdata/traces/langgraph: every view of a scenario gives its expected.json.
func TestTraces(t *testing.T) {
	tracertest.EachView(t, "../../testdata/traces/langgraph/*.expected.json", "", func(t *testing.T, v tracertest.View) {
		if strings.Contains(v.Path, ".graph_stream") {
			t.Skip("graph.stream() output: tracer/lgastream")
		}
		// where a view lacks the run's end (JS streamEvents throws GraphRecursionError instead of
		// yielding it), <name>.inferable.json says what it shows and why
		evs := tracertest.DecodeClean(t, pick(t, v.Data), filepath.Base(v.Path), v.Data)
		tree := tracertest.AssertTree(t, evs, v.Want)
		assertResumes(t, tree)
	})
}

// TestShapes covers the real-world shapes: children before parents, create/update merged by id,
// mixed time units, a dangling parent, a never-ended run, a post/patch batch, a cycle, a
// duplicate id, an interrupt and the resume on the same thread.
func TestShapes(t *testing.T) {
	in := strings.Join([]string{
		// tool child exported before its parent, ISO without zone
		`{"id":"00000000-0000-0000-0000-00000000000c","name":"search","run_type":"tool","parent_run_id":"00000000-0000-0000-0000-00000000000a","start_time":"2026-08-20T07:02:49.100000","end_time":"2026-08-20T07:02:49.200000","status":"success","extra":{"tool_call_id":"call_1","metadata":{"thread_id":"T"}}}`,
		// llm as create + update, epoch seconds then ns string
		`{"op":"createRun","run":{"id":"00000000-0000-0000-0000-00000000000b","name":"gpt","run_type":"llm","parent_run_id":"00000000-0000-0000-0000-00000000000a","start_time":1787209368.5}}`,
		`{"op":"updateRun","run_id":"00000000-0000-0000-0000-00000000000b","run":{"end_time":"1787209369000000000","outputs":{"generations":[[{"message":{"kwargs":{"tool_calls":[{"id":"call_1","name":"search","args":{}}],"usage_metadata":{"input_tokens":10,"output_tokens":5}}}}]]}}}`,
		// root via post/patch batch (ms numbers)
		`{"post":[{"id":"00000000-0000-0000-0000-00000000000a","name":"graph","run_type":"chain","start_time":1787209368000,"extra":{"metadata":{"thread_id":"T"}}}],"patch":[]}`,
		`{"post":[],"patch":[{"id":"00000000-0000-0000-0000-00000000000a","end_time":"2026-08-20T07:02:50Z","status":"SUCCESS"}]}`,
		// a second root interrupted, then a resume on the same thread that never ends
		`{"id":"00000000-0000-0000-0000-0000000000a2","name":"graph","run_type":"chain","start_time":"2026-08-20T07:03:00Z","end_time":"2026-08-20T07:03:01Z","status":"success","outputs":{"__interrupt__":[{"value":"approve?"}]},"extra":{"metadata":{"thread_id":"T"}}}`,
		`{"id":"00000000-0000-0000-0000-0000000000a3","name":"graph","run_type":"chain","start_time":"2026-08-20T07:04:00Z","status":"pending","extra":{"metadata":{"thread_id":"T"}}}`,
		// a dangling subtree: its parent was never exported
		`{"id":"00000000-0000-0000-0000-0000000000d1","name":"gpt","run_type":"llm","parent_run_id":"00000000-0000-0000-0000-0000000000ff","start_time":"2026-08-20T07:05:00+00:00","end_time":"2026-08-20T07:05:01+00:00","error":"boom","extra":{"metadata":{"thread_id":"T"}}}`,
		// a cycle and a duplicate
		`{"id":"00000000-0000-0000-0000-0000000000e1","name":"x","run_type":"chain","parent_run_id":"00000000-0000-0000-0000-0000000000e2","start_time":"2026-08-20T07:06:00Z","end_time":"2026-08-20T07:06:01Z","extra":{"metadata":{"thread_id":"U"}}}`,
		`{"id":"00000000-0000-0000-0000-0000000000e2","name":"y","run_type":"chain","parent_run_id":"00000000-0000-0000-0000-0000000000e1","start_time":"2026-08-20T07:06:00Z","end_time":"2026-08-20T07:06:01Z","extra":{"metadata":{"thread_id":"U"}}}`,
		`{"op":"createRun","run":{"id":"00000000-0000-0000-0000-0000000000e2","name":"y","run_type":"chain"}}`,
	}, "\n") + "\n"
	evs, errs := tracertest.Decode(t, DecodeRuns, "shapes.jsonl", []byte(in))
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"shapes.jsonl:8:", "dangling parent", "shapes.jsonl:10:", "cycle", "shapes.jsonl:11:", "duplicate run id"} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors %q lack %q", joined, want)
		}
	}
	tree := model.Project(evs)
	var sT *model.Session
	for _, s := range tree.Sessions {
		if s.ID == "T" {
			sT = s
		}
	}
	if sT == nil || len(sT.Runs) != 4 {
		t.Fatalf("session T = %+v, want 4 runs", sT)
	}
	r0 := sT.Runs[0]
	if r0.Status != model.StatusCompleted || len(r0.Turns[0].Steps) != 1 || len(r0.Turns[0].Steps[0].ToolCalls) != 1 {
		t.Errorf("first run = %s with %d steps", r0.Status, len(r0.Turns[0].Steps))
	}
	if m := r0.Turns[0].Steps[0].ModelCalls[0]; m.Usage.InputTokens != 10 || m.Duration().Milliseconds() != 500 {
		t.Errorf("model call usage %+v duration %v (epoch s start, ns string end)", m.Usage, m.Duration())
	}
	if r := sT.Runs[1]; r.Status != model.StatusWaiting || r.StopReason != model.StopAwaitingApproval {
		t.Errorf("interrupted run = %s/%s", r.Status, r.StopReason)
	}
	if r := sT.Runs[2]; r.Kind != "resume" || r.ParentRunID != sT.Runs[1].ID || r.Ended {
		t.Errorf("resume run kind=%s parent=%s ended=%v", r.Kind, r.ParentRunID, r.Ended)
	}
	if r := sT.Runs[3]; r.Status != model.StatusFailed || r.StopReason != model.StopModelError {
		t.Errorf("dangling run = %s/%s, want failed/model_error", r.Status, r.StopReason)
	}
	tracertest.NoErrorFindings(t, evs)
}

// TestMalformed feeds broken lines to both decoders: each is reported with file:line, the rest
// is read.
func TestMalformed(t *testing.T) {
	good, _ := os.ReadFile("../../testdata/samples/langgraph/01_react_multi_step.stream_events_v2.jsonl")
	lines := strings.SplitAfter(string(good), "\n")
	big := `{"event":"on_chain_stream","run_id":"x","data":{"chunk":"` + strings.Repeat("x", ingest.MaxLine+1) + `"}}` + "\n"
	tests := []tracertest.BadCase{
		{Name: "not json", Bad: "nope\n", Want: "malformed JSON"},
		{Name: "wrong type", Bad: `{"event":"on_tool_start","run_id":42}` + "\n", Want: `field "run_id"`},
		{Name: "invalid utf8", Bad: "{\"event\":\"on_custom_event\",\"run_id\":\"\xff\"}\n", Want: "invalid UTF-8"},
		{Name: "huge", Bad: big, Want: "longer than"},
	}
	tracertest.AssertMalformed(t, DecodeEvents, tests,
		func(bad string) string { return lines[0] + bad + strings.Join(lines[1:], "") },
		func(s model.Summary) bool { return s.Steps == 3 })
	payloads, _ := os.ReadFile("../../testdata/samples/langgraph/01_react_multi_step.langsmith_payloads.jsonl")
	torn := string(payloads[:len(payloads)-40])
	tracertest.AssertTorn(t, DecodeRuns, []byte(torn))
}

func FuzzDecodeRuns(f *testing.F) {
	tracertest.FuzzSeeds(f, "../../testdata/samples/langgraph/*.json*", 2000)
	tracertest.FuzzSeeds(f, "../../testdata/samples-py/langgraph/0[46]_*.langsmith_payloads.jsonl", 2000)
	f.Add([]byte(`[{"id":"a","run_type":"chain","child_runs":[{"id":"b","run_type":"llm"}]}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, DecodeRuns, "fuzz.jsonl", b)
		DetectRuns(b)
	})
}

func FuzzDecodeEvents(f *testing.F) {
	tracertest.FuzzSeeds(f, "../../testdata/samples/langgraph/*.stream_events_v2.jsonl", 2000)
	tracertest.FuzzSeeds(f, "../../testdata/samples-py/langgraph/0[479]_*.stream_events_v2.jsonl", 2000)
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, DecodeEvents, "fuzz.jsonl", b)
		DetectEvents(b)
	})
}

// deepTree is one run tree n chain runs deep on one line: every chain run holds a model call and
// the next chain run in its child_runs.
func deepTree(n int, newline bool) []byte {
	var b bytes.Buffer
	for i := range n {
		const t0 = 1767225600 // 2026-01-01, epoch seconds
		fmt.Fprintf(&b, `{"id":"%08d-0000-4000-8000-000000000000","name":"node","run_type":"chain","trace_id":"00000000-0000-4000-8000-000000000000","start_time":%d,"status":"success","end_time":%d,"child_runs":[{"id":"%08d-0000-4000-8000-00000000000f","name":"llm","run_type":"llm","start_time":%d,"end_time":%d.5,"status":"success"}`,
			i, t0+i, t0+2*n-i, i, t0+i, t0+i)
		if i < n-1 {
			b.WriteString(",")
		}
	}
	for range n {
		b.WriteString("]}")
	}
	if newline {
		b.WriteString("\n")
	}
	return b.Bytes()
}

// TestDeepChildRuns: a child_runs tree 100k runs deep is reported as exceeding the max depth,
// with file:line and the limit, not as a truncated line, and the runs above the limit are kept
// (issue 9 item 10).
func TestDeepChildRuns(t *testing.T) {
	for _, newline := range []bool{true, false} {
		evs, errs := tracertest.Decode(t, DecodeRuns, "deep.json", deepTree(100_000, newline))
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), "deep.json:1:") || !strings.Contains(errs[0].Error(), fmt.Sprintf("exceeded max depth %d", MaxDepth)) || strings.Contains(errs[0].Error(), "truncated") {
			t.Errorf("newline %v: errors %v, want one: deep.json:1: … exceeded max depth %d", newline, errs, MaxDepth)
		}
		if s := model.Project(evs).Summarize(); s.Runs != 1 || s.ModelCalls < MaxDepth/2-2 || s.ModelCalls > MaxDepth/2 {
			t.Errorf("newline %v: %+v, want the %d model calls above the limit", newline, s, MaxDepth/2)
		}
		tracertest.AssertClean(t, evs)
	}
}

// TestPruneDeep: only arrays at the limit that hold containers are emptied; strings with
// brackets and escapes are left alone.
func TestPruneDeep(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		dropped  int
	}{
		{`[[[1]]]`, `[[[1]]]`, 0},
		{`[{"a":[[1],"x"]}]`, `[{"a":[]}]`, 1},
		{`[{"a":[1,"x"]},{"b":{"c":2}}]`, `[{"a":[1,"x"]},{"b":{"c":2}}]`, 0},
		{`[{"a":[{"b":[1]},"]"]}]`, `[{"a":[]}]`, 1},
		{`{"s":"[[[[\"","a":[[[[2]]]]}`, `{"s":"[[[[\"","a":[[]]}`, 1},
		{`[{"a":[7,"[{"]}]`, `[{"a":[7,"[{"]}]`, 0},
	} {
		got, n := pruneDeep([]byte(tt.in), 3)
		if string(got) != tt.want || n != tt.dropped {
			t.Errorf("pruneDeep(%s) = %s, %d; want %s, %d", tt.in, got, n, tt.want, tt.dropped)
		}
	}
}

// FuzzPruneDeep: pruning keeps valid JSON valid and leaves input that nests no deeper than the
// limit as it is.
func FuzzPruneDeep(f *testing.F) {
	f.Add([]byte(`[{"a":[{"b":[1]},"]"]}]`), 3)
	f.Fuzz(func(t *testing.T, b []byte, limit int) {
		if limit < 1 || limit > 64 {
			limit = 3
		}
		out, n := pruneDeep(b, limit)
		if n == 0 && !bytes.Equal(out, b) {
			t.Fatalf("nothing dropped but %q became %q", b, out)
		}
		if json.Valid(b) && !json.Valid(out) {
			t.Fatalf("%q pruned to invalid %q", b, out)
		}
	})
}

// TestPythonSamples walks testdata/samples-py/langgraph (langgraph 1.2 Python, three views of
// each execution): counts, statuses and stop reasons are the truth the generator observed.
func TestPythonSamples(t *testing.T) {
	n := tracertest.EachViewWith(t, "../../testdata/samples-py/langgraph/*.expected.json",
		[]string{".run_tree.json", ".stream_events_v2.jsonl", ".langsmith_payloads.jsonl"}, func(t *testing.T, v tracertest.View) {
			evs := tracertest.DecodeClean(t, pick(t, v.Data), filepath.Base(v.Path), v.Data)
			assertResumes(t, tracertest.AssertTree(t, evs, v.Want))
		})
	if n < 36 {
		t.Fatalf("only %d views", n)
	}
}

// assertResumes: a resume (Command(resume=…) or null/None on the same thread) is a resume run
// whose parent is the waiting run it continues.
func assertResumes(t *testing.T, tree *model.Tree) {
	t.Helper()
	if tree == nil || len(tree.Sessions) == 0 {
		return
	}
	runs := tree.Sessions[0].Runs
	for i := 1; i < len(runs); i++ {
		if runs[i-1].Status == model.StatusWaiting && (runs[i].Kind != "resume" || runs[i].ParentRunID != runs[i-1].ID) {
			t.Errorf("run %d: kind %q parent %q, want a resume of %s", i, runs[i].Kind, runs[i].ParentRunID, runs[i-1].ID)
		}
	}
}
