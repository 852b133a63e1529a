package deepseek

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

func decodeBytes(t testing.TB, name string, b []byte) ([]model.Event, []*ingest.DecodeError) {
	t.Helper()
	var evs []model.Event
	em := ingest.NewEmitter(func(ev *model.Event) { evs = append(evs, *ev) })
	em.File = name
	if err := Decode(bytes.NewReader(b), em); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	errs, _ := em.Errors()
	return evs, errs
}

func decodeFile(t *testing.T, path string) ([]model.Event, []*ingest.DecodeError) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return decodeBytes(t, filepath.Base(path), b)
}

type runWant struct {
	status model.RunStatus
	stop   model.StopReason
}

func assertTree(t *testing.T, evs []model.Event, want model.Summary, runs []runWant) *model.Tree {
	t.Helper()
	for _, f := range model.CheckEvents(evs) {
		if f.Severity == model.SevError {
			t.Errorf("finding: %s", f)
		}
	}
	tree := model.Project(evs)
	if got := tree.Summarize(); got != want {
		t.Errorf("summary = %+v, want %+v", got, want)
	}
	var got []runWant
	for _, s := range tree.Sessions {
		for _, r := range s.Runs {
			got = append(got, runWant{r.Status, r.StopReason})
		}
	}
	if len(got) != len(runs) {
		t.Fatalf("runs = %v, want %v", got, runs)
	}
	for i := range runs {
		if got[i] != runs[i] {
			t.Errorf("run %d = %v, want %v", i, got[i], runs[i])
		}
	}
	return tree
}

// TestSamples asserts the ground truth of testdata/samples/deepseek-harness (README table).
func TestSamples(t *testing.T) {
	dir := "../../testdata/samples/deepseek-harness"
	tests := []struct {
		file string
		want model.Summary
		runs []runWant
	}{
		{"text-turn.session.jsonl", model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 1, ModelCalls: 1}, []runWant{{model.StatusCompleted, model.StopGoalReached}}},
		{"approval-composer.session.jsonl", model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 4, ModelCalls: 4, ToolCalls: 3}, []runWant{{model.StatusCompleted, model.StopGoalReached}}},
		{"cancel.session.jsonl", model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 1, ModelCalls: 1}, []runWant{{model.StatusCancelled, model.StopCancelled}}},
		{"error-finish.session.jsonl", model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 1, ModelCalls: 1}, []runWant{{model.StatusFailed, model.StopModelError}}},
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
			tree := assertTree(t, evs, tt.want, tt.runs)
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
	evs, errs := decodeBytes(t, "real.jsonl", []byte(log))
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
	for _, f := range model.CheckEvents(evs) {
		if f.Severity == model.SevError {
			t.Errorf("finding: %s", f)
		}
	}
}

// TestMalformed feeds broken records: each is reported with its line and the rest is read.
func TestMalformed(t *testing.T) {
	big := `{"type":"user/message","data":{"content":"` + strings.Repeat("x", ingest.MaxLine+10) + `"}}`
	tests := []struct {
		name, line, want string
	}{
		{"not json", `hello`, "not a JSON"},
		{"wrong type", `{"type":"turn/start","time":"soon","data":{"turn":1}}`, `field "time"`},
		{"invalid utf8", "{\"type\":\"user/message\",\"data\":{\"content\":\"\xff\xfe\"}}", "invalid UTF-8"},
		{"huge line", big, "longer than"},
		{"end without start", `{"type":"step/end","data":{"turn":1,"step":1}}`, "without an open step"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := `{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}` + "\n" + tt.line + "\n" +
				`{"type":"turn/start","data":{"turn":1}}` + "\n" + `{"type":"turn/end","data":{"turn":1,"reason":{"kind":"completed"}}}` + "\n"
			evs, errs := decodeBytes(t, "bad.jsonl", []byte(in))
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), "bad.jsonl:2") || !strings.Contains(errs[0].Error(), tt.want) {
				t.Fatalf("errors = %v, want bad.jsonl:2 … %s", errs, tt.want)
			}
			if s := model.Project(evs).Summarize(); s.Runs != 1 {
				t.Errorf("rest not read: %+v", s)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/samples/deepseek-harness/*.jsonl")
	for _, p := range files {
		b, _ := os.ReadFile(p)
		if len(b) > 8000 {
			b = b[:8000]
		}
		f.Add(b)
	}
	f.Add([]byte(`{"type":"turn/end","data":{"reason":"x"}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, _ := decodeBytes(t, "fuzz.jsonl", b)
		for i := range evs {
			if err := evs[i].Validate(); err != nil {
				t.Fatalf("invalid event %+v: %v", evs[i], err)
			}
		}
		model.Project(evs)
		model.CheckEvents(evs)
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
	assertTree(t, evs, model.Summary{Sessions: 1, Runs: 2, Turns: 2, Steps: 2, ModelCalls: 2}, []runWant{{model.StatusCompleted, model.StopGoalReached}, {model.StatusCompleted, model.StopGoalReached}})
}
