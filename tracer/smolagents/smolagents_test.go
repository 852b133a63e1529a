package smolagents

import (
	"bytes"
	"encoding/json"
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

type runWant struct {
	Status     model.RunStatus  `json:"status"`
	StopReason model.StopReason `json:"stop_reason"`
}

type expected struct {
	model.Summary
	RunsDetail []runWant `json:"runs_detail"`
}

// TestFixtures walks testdata/*.expected.json (made by testdata/gen_fixtures.py from smolagents'
// field definitions) and asserts the exact summary, statuses and stop reasons.
func TestFixtures(t *testing.T) {
	exps, _ := filepath.Glob("testdata/*.expected.json")
	if len(exps) == 0 {
		t.Fatal("no fixtures")
	}
	for _, exp := range exps {
		base := strings.TrimSuffix(exp, ".expected.json")
		var want expected
		b, err := os.ReadFile(exp)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		views, _ := filepath.Glob(base + ".*")
		for _, view := range views {
			if strings.HasSuffix(view, ".expected.json") {
				continue
			}
			t.Run(filepath.Base(view), func(t *testing.T) {
				b, err := os.ReadFile(view)
				if err != nil {
					t.Fatal(err)
				}
				if Detect(b) == 0 {
					t.Errorf("not detected")
				}
				evs, errs := decodeBytes(t, filepath.Base(view), b)
				for _, e := range errs {
					t.Errorf("decode error: %v", e)
				}
				for _, f := range model.CheckEvents(evs) {
					if f.Severity == model.SevError {
						t.Errorf("finding: %s", f)
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
			})
		}
	}
}

// TestLines checks that events of a pretty-printed dump point at the line each step starts on.
func TestLines(t *testing.T) {
	b, _ := os.ReadFile("testdata/01_code_agent.steps.json")
	evs, _ := decodeBytes(t, "01.json", b)
	lines := strings.Split(string(b), "\n")
	for _, ev := range evs {
		if ev.Type != model.StepStart {
			continue
		}
		if l := lines[ev.Origin.Line-1]; !strings.Contains(l, "{") {
			t.Errorf("step/start origin line %d = %q, want the line opening the step", ev.Origin.Line, l)
		}
	}
}

// TestMalformed: bad records are reported with file:line and the rest is read.
func TestMalformed(t *testing.T) {
	task := `{"task": "t", "task_images": null}` + "\n"
	good := `{"step_number": 1, "timing": {"start_time": 1785157562.5, "end_time": 1785157563.5, "duration": 1.0}, "tool_calls": [], "error": null, "model_output_message": {"role": "assistant", "content": "x"}, "model_output": "x", "observations": null, "action_output": 1, "token_usage": null, "is_final_answer": true}` + "\n"
	big := `{"task": "` + strings.Repeat("x", ingest.MaxLine+1) + `"}` + "\n"
	tests := []struct{ name, bad, want string }{
		{"not json", "hello\n", "malformed JSON"},
		{"wrong type", `{"step_number": "one", "timing": {}}` + "\n", `field "step_number"`},
		{"unknown dict", `{"foo": 1}` + "\n", "expected a smolagents step dict"},
		{"invalid utf8", "{\"task_images\": null, \"task\": \"\xff\"}\n", "invalid UTF-8"},
		{"huge", big, "longer than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := task + tt.bad + good
			evs, errs := decodeBytes(t, "bad.jsonl", []byte(in))
			if len(errs) == 0 || !strings.Contains(errs[0].Error(), "bad.jsonl:2") || !strings.Contains(errs[0].Error(), tt.want) {
				t.Fatalf("errors = %v, want bad.jsonl:2 … %s", errs, tt.want)
			}
			if s := model.Project(evs).Summarize(); s.Steps != 1 {
				t.Errorf("rest not read: %+v", s)
			}
		})
	}
	_, errs := decodeBytes(t, "torn.jsonl", []byte(task+good+`{"step_number": 2, "timing": {"sta`))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "truncated") {
		t.Errorf("errors = %v, want one truncated-line error", errs)
	}
}

func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.json*")
	for _, p := range files {
		if strings.HasSuffix(p, ".expected.json") {
			continue
		}
		b, _ := os.ReadFile(p)
		if len(b) > 6000 {
			b = b[:6000]
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		evs, _ := decodeBytes(t, "fuzz.json", b)
		for i := range evs {
			if err := evs[i].Validate(); err != nil {
				t.Fatalf("invalid event: %v", err)
			}
		}
		model.Project(evs)
		model.CheckEvents(evs)
		Detect(b)
	})
}
