package langgraphv3

import (
	"bytes"
	"fmt"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"os"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

const samples = "../../testdata/samples/langgraph-streams"

// TestSamples: every stream of testdata/samples/langgraph-streams gives the ground truth its
// generator observed.
func TestSamples(t *testing.T) {
	views := 0
	n := tracertest.EachView(t, filepath.Join(samples, "*.expected.json"), "stream_events_v3.jsonl", func(t *testing.T, v tracertest.View) {
		views++
		if Detect(v.Data) == 0 {
			t.Fatal("not detected")
		}
		evs := tracertest.DecodeClean(t, Decode, filepath.Base(v.Path), v.Data)
		tree := tracertest.AssertTree(t, evs, v.Want)
		checkScenario(t, v.Scenario, tree)
	})
	if n < 7 || views != n {
		t.Fatalf("%d scenarios, %d streams read, want 7 of each", n, views)
	}
}

// checkScenario asserts what the counts alone do not show.
func checkScenario(t *testing.T, scenario string, tree *model.Tree) {
	t.Helper()
	runs := tree.Sessions[0].Runs
	switch scenario {
	case "04_interrupt_approve", "05_interrupt_reject", "06_breakpoint_before_tools":
		if r := runs[1]; r.Kind != "resume" || r.ParentRunID != runs[0].ID {
			t.Errorf("run 2 kind %q parent %q, want a resume of %s", r.Kind, r.ParentRunID, runs[0].ID)
		}
	case "07_abort_mid_tool":
		c := runs[0].Turns[0].Steps[0].ToolCalls[0]
		if c.Outcome != model.OutcomeCancelled {
			t.Errorf("aborted tool outcome = %s, want cancelled", c.Outcome)
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		head string
		want bool
	}{
		{`{"type":"event","seq":0,"method":"lifecycle","params":{"namespace":[],"timestamp":1,"data":{"event":"running","graph_name":"root"}}}`, true},
		{`{"type":"event","seq":3,"method":"tasks","params":{"namespace":["agent:x"],"data":{}}}`, true},
		{`{"event":"on_chain_start","run_id":"x"}`, false},
		{`{"method":"tools/call","params":{"name":"x"}}`, false},
		{`not json`, false},
	} {
		if got := Detect([]byte(tt.head)) > 0; got != tt.want {
			t.Errorf("Detect(%s) = %v, want %v", tt.head, got, tt.want)
		}
	}
}

func TestMalformed(t *testing.T) {
	start := `{"type":"event","seq":0,"method":"lifecycle","params":{"namespace":[],"timestamp":1796117336000,"data":{"event":"running","graph_name":"root"}}}`
	rest := `{"type":"event","seq":1,"method":"messages","params":{"namespace":["agent:1"],"timestamp":1796117336001,"node":"agent","data":{"event":"message-start","id":"m","run_id":"r"}}}
{"type":"event","seq":2,"method":"messages","params":{"namespace":["agent:1"],"timestamp":1796117336002,"node":"agent","data":{"event":"message-finish","reason":"stop","usage":{"input_tokens":1,"output_tokens":2},"run_id":"r"}}}
{"type":"event","seq":3,"method":"lifecycle","params":{"namespace":[],"timestamp":1796117336003,"data":{"event":"completed","graph_name":"root"}}}`
	tracertest.AssertMalformed(t, Decode, []tracertest.BadCase{
		{Name: "not json", Bad: `{nope`, Want: "invalid character"},
		{Name: "no method", Bad: `{"type":"event","params":{}}`, Want: "expected a protocol event"},
		{Name: "wrong namespace", Bad: `{"type":"event","method":"tasks","params":{"namespace":3}}`, Want: "field params.namespace"},
		{Name: "wrong data", Bad: `{"type":"event","method":"tools","params":{"namespace":[],"data":{"event":4}}}`, Want: "params.data"},
	}, func(bad string) string { return start + "\n" + bad + "\n" + rest + "\n" }, func(s model.Summary) bool { return s.ModelCalls == 1 && s.Runs == 1 })
	tracertest.AssertTorn(t, Decode, []byte(start+"\n"+`{"type":"event","me`))
}

// FuzzDecode: any input decodes without panic and every event emitted passes the canonical
// schema.
func FuzzDecode(f *testing.F) {
	tracertest.FuzzSeeds(f, filepath.Join(samples, "*.stream_events_v3.jsonl"), 4096)
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, Decode, "fuzz.jsonl", b)
	})
}

// TestResumeInAnotherFile: the interrupted invocation and its resume written to two files (a
// resume in a new process) read through one emitter give one session, the resume joined to the
// waiting run by the checkpoint it starts from.
func TestResumeInAnotherFile(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(samples, "04_interrupt_approve.stream_events_v3.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(b, []byte("\n"))
	cut := 0
	for i, l := range lines {
		if i > 0 && bytes.Contains(l, []byte(`"seq":0,`)) {
			cut = i
			break
		}
	}
	if cut == 0 {
		t.Fatal("no second invocation in the fixture")
	}
	var evs []model.Event
	em := ingest.NewEmitter(func(ev *model.Event) { evs = append(evs, *ev) })
	for i, part := range [][][]byte{lines[:cut], lines[cut:]} {
		em.File = fmt.Sprintf("part%d.jsonl", i+1)
		if err := Decode(bytes.NewReader(bytes.Join(part, nil)), em); err != nil {
			t.Fatal(err)
		}
	}
	tree := tracertest.AssertTree(t, evs, tracertest.LoadExpected(t, filepath.Join(samples, "04_interrupt_approve.expected.json")))
	runs := tree.Sessions[0].Runs
	if runs[1].Kind != "resume" || runs[1].ParentRunID != runs[0].ID {
		t.Errorf("run 2 kind %q parent %q, want a resume of %s", runs[1].Kind, runs[1].ParentRunID, runs[0].ID)
	}
}
