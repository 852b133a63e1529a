package deepseek

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

func decodeFile(t *testing.T, path string) ([]model.Event, []*ingest.DecodeError) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return tracertest.Decode(t, Decode, filepath.Base(path), b)
}

// TestSamples asserts the ground truth of testdata/samples/deepseek-harness (README table).
func TestSamples(t *testing.T) {
	dir := "../../testdata/samples/deepseek-harness"
	tests := []struct {
		file string
		want tracertest.Expected
	}{
		{"text-turn.session.jsonl", tracertest.Expected{Summary: model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 1, ModelCalls: 1}, RunsDetail: tracertest.Completed(1)}},
		{"approval-composer.session.jsonl", tracertest.Expected{Summary: model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 4, ModelCalls: 4, ToolCalls: 3}, RunsDetail: tracertest.Completed(1)}},
		{"cancel.session.jsonl", tracertest.Expected{Summary: model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 1, ModelCalls: 1}, RunsDetail: []tracertest.Run{{Status: model.StatusCancelled, StopReason: model.StopCancelled}}}},
		{"error-finish.session.jsonl", tracertest.Expected{Summary: model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 1, ModelCalls: 1}, RunsDetail: []tracertest.Run{{Status: model.StatusFailed, StopReason: model.StopModelError}}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join(dir, tt.file)
			head, _ := os.ReadFile(path)
			if s := Detect(head); s < 90 {
				t.Errorf("Detect = %d", s)
			}
			evs, errs := decodeFile(t, path)
			for _, e := range errs {
				t.Errorf("decode error: %v", e)
			}
			tree := tracertest.AssertProjection(t, evs, tt.want)
			switch tt.file {
			case "approval-composer.session.jsonl":
				r := tree.Sessions[0].Runs[0]
				if len(r.Waits) != 1 || r.Waits[0].Decision != model.DecisionApproved || r.Waits[0].Reason != model.WaitApproval {
					t.Errorf("waits = %+v, want one approved approval wait", r.Waits)
				}
			case "cancel.session.jsonl":
				m := tree.Sessions[0].Runs[0].Turns[0].Steps[0].ModelCalls[0]
				if m.Outcome != model.OutcomeCancelled {
					t.Errorf("model call outcome %s, want cancelled", m.Outcome)
				}
			case "error-finish.session.jsonl":
				m := tree.Sessions[0].Runs[0].Turns[0].Steps[0].ModelCalls[0]
				if m.Outcome != model.OutcomeError || m.Error == nil || !strings.Contains(m.Error.Message, "401") {
					t.Errorf("model call = %+v, want failed with the 401", m)
				}
			}
		})
	}
}

// TestGenerated: every log gen.mjs wrote by running the real harness (approve, reject, abort
// mid-tool, resume in a new process) gives the ground truth the generator observed; a rejected
// call is not a tool call and its wait is denied, an aborted tool is cancelled, not failed.
func TestGenerated(t *testing.T) {
	n := tracertest.EachView(t, "../../testdata/samples/deepseek-harness/*.expected.json", "session.jsonl", func(t *testing.T, v tracertest.View) {
		if Detect(v.Data) < 90 {
			t.Fatal("not detected")
		}
		evs := tracertest.DecodeClean(t, Decode, filepath.Base(v.Path), v.Data)
		tree := tracertest.AssertTree(t, evs, v.Want)
		r := tree.Sessions[0].Runs[0]
		switch v.Scenario {
		case "10_approval_approve", "11_approval_reject":
			want := model.DecisionApproved
			if v.Scenario == "11_approval_reject" {
				want = model.DecisionDenied
			}
			if len(r.Waits) != 1 || r.Waits[0].Decision != want {
				t.Errorf("waits = %+v, want one %s", r.Waits, want)
			}
		case "12_abort_mid_tool":
			c := r.Turns[0].Steps[0].ToolCalls[0]
			if c.Outcome != model.OutcomeCancelled {
				t.Errorf("tool outcome %s, want cancelled", c.Outcome)
			}
		}
	})
	if n != 4 {
		t.Fatalf("%d generated scenarios, want 4", n)
	}
}

// TestRealShapes covers the current (non-templated) shapes: seq/time, packed chunk rows,
// steering through the next-step inbox, a crash-repaired turn and a torn last line.
func TestRealShapes(t *testing.T) {
	log := `{"type":"session","version":0,"id":"s_01","createdAt":1785157562825,"cwd":"/p","delegationDepth":0}
{"type":"turn/start","seq":0,"time":1785157562900,"data":{"turn":1}}
{"type":"step/start","seq":1,"time":1785157562903,"data":{"turn":1,"step":1}}
{"type":"user/message","seq":2,"time":1785157562904,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"List the files"}],"source":{"kind":"user"}},"surfaceOp":"append"}
{"type":"assistant/chunk","seq":3,"time":1785157563301,"data":{"turn":1,"step":1,"chunk":{"type":"block-start","index":0,"blockType":"tool-call"}}}
{"type":"tool-call-chunks","seq0":4,"time0":1785157563320,"data":{"turn":1,"step":1,"index":0,"dt":[11,9],"id":"call_1","name":"bash","args":["{\"comm","and\": \"","ls\"}"]}}
{"type":"assistant/message","seq":7,"time":1785157563354,"data":{"turn":1,"step":1,"message":{"id":"m1","role":"assistant","content":[{"type":"tool-call","id":"call_1","name":"bash","arguments":"{}"}],"source":{"kind":"model","provider":"deepseek","model":"deepseek-v4"}},"usage":{"inputTokens":137,"outputTokens":21,"cacheReadTokens":15000}}}
{"type":"tool/call","seq":8,"time":1785157563360,"data":{"turn":1,"step":1,"callId":"call_1","name":"bash","arguments":"{}"}}
{"type":"agent/inbox/spliced","seq":9,"time":1785157563370,"data":{"target":"next-step","start":0,"inserted":[{"id":"steer1","role":"user","content":[{"type":"text","text":"only src"}],"source":{"kind":"user"}}]}}
{"type":"tool/result","seq":10,"time":1785157563410,"data":{"turn":1,"step":1,"message":{"id":"r1","role":"user","content":[{"type":"tool-result","toolCallId":"call_1","content":[{"type":"text","text":"boom"}],"isError":true}],"source":{"kind":"tool","callId":"call_1"}}}}
{"type":"step/end","seq":11,"time":1785157563411,"data":{"turn":1,"step":1}}
{"type":"step/start","seq":12,"time":1785157563420,"data":{"turn":1,"step":2}}
{"type":"assistant/message","seq":13,"time":1785157563500,"data":{"turn":1,"step":2,"message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}]}}}
{"type":"step/end","seq":14,"time":1785157563501,"data":{"turn":1,"step":2}}
{"type":"turn/end","seq":15,"time":1785157565020,"data":{"turn":1,"reason":{"kind":"completed"}}}
{"type":"turn/start","seq":16,"time":1785157566000,"data":{"turn":2}}
{"type":"step/start","seq":17,"time":1785157566001,"data":{"turn":2,"step":1}}
{"type":"assistant/message","seq":18,"time":1785157566100,"data":{"turn":2,"step":1,"message":{"id":"m3","role":"assistant","content":[{"type":"tool-call","id":"call_2","name":"bash","arguments":"{}"}]}}}
{"type":"tool/call","seq":19,"time":1785157566101,"data":{"turn":2,"step":1,"callId":"call_2","name":"bash","arguments":"{}"}}
{"type":"tool/result","seq":20,"time":1785157566101,"data":{"turn":2,"step":1,"message":{"content":[{"type":"tool-result","toolCallId":"call_2","content":[{"type":"text","text":"unknown"}],"isError":true}],"source":{"kind":"tool","callId":"call_2"}},"error":{"name":"ToolOutcomeUnknown","code":"TOOL_OUTCOME_UNKNOWN"}}}
{"type":"step/end","seq":21,"time":1785157566101,"data":{"turn":2,"step":1}}
{"type":"turn/end","seq":22,"time":1785157566101,"data":{"turn":2,"reason":{"kind":"interrupted"}}}
{"type":"turn/start","seq":23,"time":17851575`
	evs, errs := tracertest.Decode(t, Decode, "real.jsonl", []byte(log))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "real.jsonl:23") || !strings.Contains(errs[0].Error(), "truncated") {
		t.Errorf("errors = %v, want one torn-line error at real.jsonl:23", errs)
	}
	tree := model.Project(evs)
	want := model.Summary{Sessions: 1, Runs: 2, Turns: 2, Steps: 3, ModelCalls: 3, ToolCalls: 2, FailedToolCalls: 2}
	if got := tree.Summarize(); got != want {
		t.Errorf("summary = %+v, want %+v", got, want)
	}
	r1, r2 := tree.Sessions[0].Runs[0], tree.Sessions[0].Runs[1]
	if r1.Status != model.StatusCompleted || r2.Status != model.StatusRunning || r2.Ended {
		t.Errorf("runs = %s, %s (ended %v); want completed and an open run after crash repair", r1.Status, r2.Status, r2.Ended)
	}
	if len(r1.Inputs) != 1 || r1.Inputs[0].ConsumedBy == "" {
		t.Errorf("steer inputs = %+v, want one consumed by step 2", r1.Inputs)
	}
	if u := r1.Turns[0].Steps[0].ModelCalls[0].Usage; u.InputTokens != 15137 || u.CachedTokens != 15000 {
		t.Errorf("usage = %+v, want input including cache reads", u)
	}
	if tc := r2.Turns[0].Steps[0].ToolCalls[0]; tc.Outcome != model.OutcomeUnknown {
		t.Errorf("repaired call outcome %s, want unknown", tc.Outcome)
	}
	tracertest.NoErrorFindings(t, evs)
}

// TestMalformed feeds broken records: each is reported with its line and the rest is read.
func TestMalformed(t *testing.T) {
	big := `{"type":"user/message","data":{"content":"` + strings.Repeat("x", ingest.MaxLine+10) + `"}}`
	tests := []tracertest.BadCase{
		{Name: "not json", Bad: `hello`, Want: "not a JSON"},
		{Name: "wrong type", Bad: `{"type":"turn/start","time":"soon","data":{"turn":1}}`, Want: `field "time"`},
		{Name: "invalid utf8", Bad: "{\"type\":\"user/message\",\"data\":{\"content\":\"\xff\xfe\"}}", Want: "invalid UTF-8"},
		{Name: "huge line", Bad: big, Want: "longer than"},
		{Name: "end without start", Bad: `{"type":"step/end","data":{"turn":1,"step":1}}`, Want: "without an open step"},
	}
	tracertest.AssertMalformed(t, Decode, tests,
		func(line string) string {
			return `{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}` + "\n" + line + "\n" +
				`{"type":"turn/start","data":{"turn":1}}` + "\n" + `{"type":"turn/end","data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n"
		},
		func(s model.Summary) bool { return s.Runs == 1 })
}

func FuzzDecode(f *testing.F) {
	tracertest.FuzzSeeds(f, "../../testdata/samples/deepseek-harness/*.jsonl", 2000)
	f.Add([]byte(`{"type":"turn/end","data":{"reason":"x"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, Decode, "fuzz.jsonl", b)
		Detect(b)
	})
}

// TestSessionAcrossFiles: one session split over two files read through one Emitter gets one
// session/start, unique ids and one seq order.
func TestSessionAcrossFiles(t *testing.T) {
	part := func(turn string) string {
		return `{"type":"session","version":0,"id":"S","createdAt":1785157562825,"delegationDepth":0}
{"type":"turn/start","seq":0,"time":1785157562900,"data":{"turn":` + turn + `}}
{"type":"step/start","seq":1,"time":1785157562901,"data":{"turn":` + turn + `,"step":1}}
{"type":"assistant/message","seq":2,"time":1785157562902,"data":{"turn":` + turn + `,"step":1,"message":{"role":"assistant","content":[{"type":"text","text":"hi"}]}}}
{"type":"step/end","seq":3,"time":1785157562903,"data":{"turn":` + turn + `,"step":1}}
{"type":"turn/end","seq":4,"time":1785157562904,"data":{"turn":` + turn + `,"reason":{"kind":"completed"}}}
`
	}
	var evs []model.Event
	em := ingest.NewEmitter(func(ev *model.Event) { evs = append(evs, *ev) })
	for i, name := range []string{"a.jsonl", "b.jsonl"} {
		em.File = name
		if err := Decode(strings.NewReader(part([]string{"1", "1"}[i])), em); err != nil {
			t.Fatal(err)
		}
	}
	tracertest.AssertProjection(t, evs, tracertest.Expected{Summary: model.Summary{Sessions: 1, Runs: 2, Turns: 2, Steps: 2, ModelCalls: 2}, RunsDetail: tracertest.Completed(2)})
}
