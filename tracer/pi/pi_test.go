package pi

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

type decodeFunc func(io.Reader, *ingest.Emitter) error

func decodeBytes(t testing.TB, dec decodeFunc, name string, b []byte) ([]model.Event, []*ingest.DecodeError) {
	t.Helper()
	var evs []model.Event
	em := ingest.NewEmitter(func(ev *model.Event) { evs = append(evs, *ev) })
	em.File = name
	if err := dec(bytes.NewReader(b), em); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	errs, _ := em.Errors()
	return evs, errs
}

// pick detects the format of a file the way tracer.Detect would among this package's formats.
func pick(t *testing.T, b []byte) decodeFunc {
	t.Helper()
	head := b
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	e, s := DetectEvents(head), DetectSession(head)
	switch {
	case e > 0 && e >= s:
		return DecodeEvents
	case s > 0:
		return DecodeSession
	}
	t.Fatalf("not detected as a pi format")
	return nil
}

type runWant struct {
	Status     model.RunStatus  `json:"status"`
	StopReason model.StopReason `json:"stop_reason"`
}

type expected struct {
	model.Summary
	RunsDetail []runWant `json:"runs_detail"`
}

func assertTree(t *testing.T, evs []model.Event, want expected) *model.Tree {
	t.Helper()
	for _, f := range model.CheckEvents(evs) {
		if f.Severity == model.SevError {
			t.Errorf("finding: %s", f)
		}
	}
	for i := range evs {
		if err := evs[i].Validate(); err != nil {
			t.Errorf("invalid event %d: %v", i, err)
		}
	}
	tree := model.Project(evs)
	if got := tree.Summarize(); got != want.Summary {
		t.Errorf("summary = %+v, want %+v", got, want.Summary)
	}
	var got []runWant
	for _, s := range tree.Sessions {
		for _, r := range s.Runs {
			got = append(got, runWant{r.Status, r.StopReason})
		}
	}
	if len(got) != len(want.RunsDetail) {
		t.Fatalf("runs = %v, want %v", got, want.RunsDetail)
	}
	for i := range got {
		if got[i] != want.RunsDetail[i] {
			t.Errorf("run %d = %v, want %v", i, got[i], want.RunsDetail[i])
		}
	}
	return tree
}

func completed(n int) []runWant {
	var out []runWant
	for range n {
		out = append(out, runWant{model.StatusCompleted, model.StopGoalReached})
	}
	return out
}

// TestSamples asserts the ground truth of testdata/samples/pi-* (README table).
func TestSamples(t *testing.T) {
	tests := []struct {
		file string
		want expected
	}{
		{"pi-agent-core/01_multi_turn_tools.events.jsonl", expected{model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 3, ModelCalls: 3, ToolCalls: 3}, completed(1)}},
		{"pi-agent-core/02_tool_error.events.jsonl", expected{model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 2, ModelCalls: 2, ToolCalls: 1, FailedToolCalls: 1}, completed(1)}},
		{"pi-coding-agent/01_coding_session.events.jsonl", expected{model.Summary{Sessions: 1, Runs: 2, Turns: 2, Steps: 7, ModelCalls: 7, ToolCalls: 5, FailedToolCalls: 1}, completed(2)}},
		{"pi-coding-agent/01_coding_session.session.jsonl", expected{model.Summary{Sessions: 1, Runs: 2, Turns: 2, Steps: 7, ModelCalls: 7, ToolCalls: 5, FailedToolCalls: 1}, completed(2)}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("../../testdata/samples", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			evs, errs := decodeBytes(t, pick(t, b), filepath.Base(tt.file), b)
			for _, e := range errs {
				t.Errorf("decode error: %v", e)
			}
			assertTree(t, evs, tt.want)
		})
	}
}

// TestTraces walks testdata/traces/pi-*: every view of a scenario must give its expected.json.
func TestTraces(t *testing.T) {
	for _, dir := range []string{"../../testdata/traces/pi-agent-core", "../../testdata/traces/pi-coding-agent"} {
		exps, _ := filepath.Glob(filepath.Join(dir, "*.expected.json"))
		for _, exp := range exps {
			base := strings.TrimSuffix(exp, ".expected.json")
			var want expected
			b, err := os.ReadFile(exp)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatalf("%s: %v", exp, err)
			}
			views, _ := filepath.Glob(base + ".*.jsonl")
			for _, view := range views {
				t.Run(filepath.Base(view), func(t *testing.T) {
					b, err := os.ReadFile(view)
					if err != nil {
						t.Fatal(err)
					}
					evs, errs := decodeBytes(t, pick(t, b), filepath.Base(view), b)
					for _, e := range errs {
						t.Errorf("decode error: %v", e)
					}
					tree := assertTree(t, evs, want)
					checkScenario(t, filepath.Base(view), tree)
				})
			}
		}
	}
}

// checkScenario asserts what the counts alone do not show.
func checkScenario(t *testing.T, view string, tree *model.Tree) {
	switch {
	case strings.HasPrefix(view, "03_steering"):
		r := tree.Sessions[0].Runs[0]
		if len(r.Inputs) != 1 || r.Inputs[0].Kind != model.InputSteer || r.Inputs[0].ConsumedBy != r.Turns[0].Steps[1].ID {
			t.Errorf("inputs = %+v, want one steer consumed by step 2", r.Inputs)
		}
	case strings.HasPrefix(view, "04_follow_up"):
		r := tree.Sessions[0].Runs[0]
		if len(r.Inputs) != 1 || r.Inputs[0].Kind != model.InputFollowUp || r.Inputs[0].ConsumedBy != r.Turns[1].ID {
			t.Errorf("inputs = %+v, want one follow-up consumed by turn 2", r.Inputs)
		}
	case strings.HasPrefix(view, "02_branched_session.session"):
		var branches []string
		for _, r := range tree.Sessions[0].Runs {
			ab := false
			for _, w := range r.Inferred {
				ab = ab || w == "abandoned_branch"
			}
			if ab {
				branches = append(branches, "abandoned")
			} else {
				branches = append(branches, "active")
			}
		}
		if strings.Join(branches, ",") != "active,abandoned,active" {
			t.Errorf("branches = %v, want active,abandoned,active", branches)
		}
	}
}

// TestSessionTree covers tree repairs: a dangling parent, a cycle, a duplicate id, a branch inside
// a run, and a run left open at the end of the file.
func TestSessionTree(t *testing.T) {
	in := `{"type":"session","version":3,"id":"S","timestamp":"2026-03-15T22:40:18.120Z","cwd":"/p"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-03-15T22:40:20.001Z","message":{"role":"user","content":"hi","timestamp":1773614420001}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-03-15T22:40:21.001Z","message":{"role":"assistant","content":[{"type":"text","text":"one"}],"stopReason":"stop","timestamp":1773614421001}}
{"type":"message","id":"a2","parentId":"u1","timestamp":"2026-03-15T22:40:22.001Z","message":{"role":"assistant","content":[{"type":"text","text":"two"}],"stopReason":"stop","timestamp":1773614422001}}
{"type":"message","id":"a2","parentId":"u1","timestamp":"2026-03-15T22:40:22.001Z","message":{"role":"assistant","content":[],"stopReason":"stop"}}
{"type":"message","id":"x1","parentId":"x2","timestamp":"2026-03-15T22:40:23.001Z","message":{"role":"user","content":"loop"}}
{"type":"message","id":"x2","parentId":"x1","timestamp":"2026-03-15T22:40:23.002Z","message":{"role":"user","content":"loop"}}
{"type":"message","id":"o1","parentId":"gone","timestamp":"2026-03-15T22:40:24.001Z","message":{"role":"user","content":"orphan"}}
{"type":"message","id":"o2","parentId":"o1","timestamp":"2026-03-15T22:40:25.001Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"t1","name":"ls","arguments":{}}],"stopReason":"toolUse"}}
`
	evs, errs := decodeBytes(t, DecodeSession, "tree.jsonl", []byte(in))
	var msgs []string
	for _, e := range errs {
		msgs = append(msgs, e.Error())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{"tree.jsonl:5: pi-session: line 5: duplicate entry id", "tree.jsonl:7:", "cycle", "tree.jsonl:8:", "not in the file"} {
		if !strings.Contains(joined, want) {
			t.Errorf("errors %q lack %q", joined, want)
		}
	}
	tree := model.Project(evs)
	runs := tree.Sessions[0].Runs
	// u1→a1 (abandoned), branch u1→a2 (abandoned: leaf is o2), x1, x2, o1→o2 (open, active)
	if len(runs) != 5 {
		t.Fatalf("runs = %d, want 5", len(runs))
	}
	if runs[1].ParentRunID != runs[0].ID {
		t.Errorf("branch run parent = %q, want %q", runs[1].ParentRunID, runs[0].ID)
	}
	if last := runs[4]; last.Ended || last.Status != model.StatusRunning {
		t.Errorf("last run ended=%v status=%s, want open", last.Ended, last.Status)
	}
	for _, f := range model.CheckEvents(evs) {
		if f.Severity == model.SevError {
			t.Errorf("finding: %s", f)
		}
	}
}

// TestMalformed feeds broken event lines: each is reported with its line, the rest is read.
func TestMalformed(t *testing.T) {
	ok, _ := os.ReadFile("../../testdata/samples/pi-agent-core/02_tool_error.events.jsonl")
	lines := strings.SplitAfter(string(ok), "\n")
	big := `{"type":"message_start","message":{"role":"user","content":"` + strings.Repeat("x", ingest.MaxLine+1) + `"}}` + "\n"
	tests := []struct {
		name, bad, want string
	}{
		{"not json", "garbage\n", "not a JSON"},
		{"wrong type", `{"type":"tool_execution_end","toolCallId":7}` + "\n", `field "toolCallId"`},
		{"invalid utf8", "{\"type\":\"message_start\",\"message\":{\"role\":\"user\",\"content\":\"\xff\"}}\n", "invalid UTF-8"},
		{"huge", big, "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := lines[0] + tt.bad + strings.Join(lines[1:], "")
			evs, errs := decodeBytes(t, DecodeEvents, "bad.jsonl", []byte(in))
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), "bad.jsonl:2") || !strings.Contains(errs[0].Error(), tt.want) {
				t.Fatalf("errors = %v, want bad.jsonl:2 … %s", errs, tt.want)
			}
			if s := model.Project(evs).Summarize(); s.Steps != 2 || s.ToolCalls != 1 {
				t.Errorf("rest not read: %+v", s)
			}
		})
	}
	// torn last line
	in := strings.Join(lines[:len(lines)-2], "") + `{"type":"agent_e`
	_, errs := decodeBytes(t, DecodeEvents, "torn.jsonl", []byte(in))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "truncated") {
		t.Errorf("errors = %v, want one truncated-line error", errs)
	}
}

func fuzzSeeds(f *testing.F, glob string) {
	files, _ := filepath.Glob(glob)
	for _, p := range files {
		b, _ := os.ReadFile(p)
		if len(b) > 6000 {
			b = b[:6000]
		}
		f.Add(b)
	}
}

func FuzzDecodeEvents(f *testing.F) {
	fuzzSeeds(f, "../../testdata/samples/pi-agent-core/*.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, _ := decodeBytes(t, DecodeEvents, "fuzz.jsonl", b)
		for i := range evs {
			if err := evs[i].Validate(); err != nil {
				t.Fatalf("invalid event: %v", err)
			}
		}
		model.Project(evs)
		model.CheckEvents(evs)
		DetectEvents(b)
	})
}

func FuzzDecodeSession(f *testing.F) {
	fuzzSeeds(f, "../../testdata/samples/pi-coding-agent/*.session.jsonl")
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, _ := decodeBytes(t, DecodeSession, "fuzz.jsonl", b)
		for i := range evs {
			if err := evs[i].Validate(); err != nil {
				t.Fatalf("invalid event: %v", err)
			}
		}
		model.Project(evs)
		model.CheckEvents(evs)
		DetectSession(b)
	})
}
