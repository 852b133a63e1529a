package openaistream

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

const samples = "../../testdata/samples/openai-agents-streams"

// TestSamples: every stream of testdata/samples/openai-agents-streams gives the ground truth its
// generator observed.
func TestSamples(t *testing.T) {
	views := 0
	n := tracertest.EachView(t, filepath.Join(samples, "*.expected.json"), "stream.jsonl", func(t *testing.T, v tracertest.View) {
		views++
		if Detect(v.Data) == 0 {
			t.Fatal("not detected")
		}
		evs := tracertest.DecodeClean(t, Decode, filepath.Base(v.Path), v.Data)
		// where the stream lacks what the generator observed, <name>.inferable.json says what it
		// shows and why (16_py_abort_mid_tool: a cancel() streams what a needs_approval pause does)
		tree := tracertest.AssertTree(t, evs, v.Want)
		checkScenario(t, v.Scenario, tree)
	})
	if n < 15 || views != n {
		t.Fatalf("%d scenarios, %d streams read, want 15 of each", n, views)
	}
}

// checkScenario asserts what the counts alone do not show.
func checkScenario(t *testing.T, scenario string, tree *model.Tree) {
	t.Helper()
	r := tree.Sessions[0].Runs[0]
	switch scenario {
	case "04_approval_approve", "05_approval_reject", "14_py_approval_approve", "15_py_approval_reject":
		if len(r.Turns) != 2 || r.Turns[0].StopReason != model.StopAwaitingApproval {
			t.Fatalf("turns = %d, first stop reason %q, want 2 turns, the first ending awaiting_approval", len(r.Turns), r.Turns[0].StopReason)
		}
		want := model.DecisionApproved
		if strings.HasPrefix(scenario, "05") || strings.HasPrefix(scenario, "15") {
			want = model.DecisionDenied
		}
		if len(r.Waits) != 1 || r.Waits[0].Decision != want {
			t.Errorf("waits = %+v, want one answered %s", r.Waits, want)
		}
	case "07_abort_mid_tool":
		c := r.Turns[0].Steps[0].ToolCalls[0]
		if c.Outcome != model.OutcomeCancelled {
			t.Errorf("aborted tool outcome = %s, want cancelled", c.Outcome)
		}
	case "09_handoff":
		if got := r.Turns[0].Steps[0].ToolCalls[0].Name; got != "transfer_to_billing_agent" {
			t.Errorf("first tool call = %q, want the handoff", got)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{`{"data":{"type":"response_started","providerData":{}},"type":"raw_model_stream_event"}`, true},
		{`{"name":"tool_called","item":{"type":"tool_call_item"},"type":"run_item_stream_event"}`, true},
		{`{"agent":{"name":"a"},"type":"agent_updated_stream_event"}`, true},
		{`{"event":"on_chain_start","run_id":"x"}`, false},
		{`{"type":"agent_start"}`, false},
		{`not json`, false},
	} {
		if got := Detect([]byte(tt.head)) > 0; got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func TestMalformed(t *testing.T) {
	good := `{"data":{"type":"response_started","providerData":{}},"type":"raw_model_stream_event"}`
	done := `{"data":{"type":"response_done","response":{"id":"r","usage":{"inputTokens":1,"outputTokens":2},"output":[{"type":"message","content":[{"type":"output_text","text":"hi"}]}]}},"type":"raw_model_stream_event"}`
	tracertest.AssertMalformed(t, Decode, []tracertest.BadCase{
		{Name: "not json", Bad: `{nope`, Want: "invalid character"},
		{Name: "unknown type", Bad: `{"type":"other"}`, Want: "expected raw_model_stream_event"},
		{Name: "no data", Bad: `{"type":"raw_model_stream_event"}`, Want: "without data"},
		{Name: "no item", Bad: `{"type":"run_item_stream_event","name":"tool_called"}`, Want: "without item"},
		{Name: "wrong type", Bad: `{"type":"run_item_stream_event","name":3}`, Want: "field name"},
		{Name: "no response", Bad: `{"type":"raw_model_stream_event","data":{"type":"response_done"}}`, Want: "without response"},
	}, func(bad string) string { return good + "\n" + bad + "\n" + done + "\n" }, func(s model.Summary) bool { return s.ModelCalls == 1 })
	tracertest.AssertTorn(t, Decode, []byte(good+"\n"+`{"type":"raw_model_str`))
}

// FuzzDecode: any input decodes without panic and every event emitted passes the canonical
// schema.
func FuzzDecode(f *testing.F) {
	tracertest.FuzzSeeds(f, filepath.Join(samples, "*.stream.jsonl"), 4096)
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, Decode, "fuzz.jsonl", b)
	})
}

// TestOutputAfterRunEnded: a tool output for a call of a run that already ended (a torn or
// spliced log) is reported, and emits no event without its run (a fuzz find).
func TestOutputAfterRunEnded(t *testing.T) {
	in := `{"new_agent":{"name":"a"},"type":"agent_updated_stream_event"}
{"type":"raw_response_event","data":{"type":"response.created","response":{"id":"r1"}}}
{"type":"raw_response_event","data":{"type":"response.completed","response":{"id":"r1","output":[{"type":"function_call","call_id":"c1","name":"f"}]}}}
{"name":"tool_called","item":{"type":"tool_call_item","raw_item":{"type":"function_call","call_id":"c1","name":"f"}},"type":"run_item_stream_event"}
{"new_agent":{"name":"a"},"type":"agent_updated_stream_event"}
{"type":"raw_response_event","data":{"type":"response.created","response":{"id":"r2"}}}
{"type":"raw_response_event","data":{"type":"response.completed","response":{"id":"r2","output":[{"type":"message"}]}}}
{"new_agent":{"name":"a"},"type":"agent_updated_stream_event"}
{"name":"tool_output","item":{"type":"tool_call_output_item","raw_item":{"type":"function_call_output","call_id":"c1","output":"x"},"output":"x"},"type":"run_item_stream_event"}
`
	evs, errs := tracertest.Decode(t, Decode, "spliced.jsonl", []byte(in))
	tracertest.FuzzEvents(t, evs)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "spliced.jsonl:9") {
		t.Errorf("errors = %v, want one at spliced.jsonl:9", errs)
	}
}
