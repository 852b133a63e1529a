package smolagents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

const samples = "../../testdata/samples-py/smolagents/"

// TestFixtures walks testdata/samples-py/smolagents (smolagents 1.26 run offline by gen.py with
// the real OpenAIModel over a scripted transport): every view — memory dump, RunResult,
// step_callback lines — gives the truth the generator observed.
func TestFixtures(t *testing.T) {
	n := tracertest.EachViewWith(t, samples+"*.expected.json", []string{".steps.json", ".run_result.json", ".callbacks.jsonl"}, func(t *testing.T, v tracertest.View) {
		if Detect(v.Data) == 0 {
			t.Errorf("not detected")
		}
		// where a view lacks the run's end (agent.interrupt() calls no step_callback),
		// <name>.inferable.json says what it shows and why
		evs := tracertest.DecodeClean(t, Decode, filepath.Base(v.Path), v.Data)
		tracertest.AssertTree(t, evs, v.Want)
	})
	if n < 18 {
		t.Fatalf("only %d views", n)
	}
}

// TestLines checks that events of a pretty-printed dump point at the line each step starts on.
func TestLines(t *testing.T) {
	b, _ := os.ReadFile(samples + "05_code_agent.steps.json")
	evs, _ := tracertest.Decode(t, Decode, "01.json", b)
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
	tests := []tracertest.BadCase{
		{Name: "not json", Bad: "hello\n", Want: "malformed JSON"},
		{Name: "wrong type", Bad: `{"step_number": "one", "timing": {}}` + "\n", Want: `field "step_number"`},
		{Name: "unknown dict", Bad: `{"foo": 1}` + "\n", Want: "expected a smolagents step dict"},
		{Name: "invalid utf8", Bad: "{\"task_images\": null, \"task\": \"\xff\"}\n", Want: "invalid UTF-8"},
		{Name: "huge", Bad: big, Want: "longer than"},
	}
	tracertest.AssertMalformed(t, Decode, tests,
		func(bad string) string { return task + bad + good },
		func(s model.Summary) bool { return s.Steps == 1 })
	tracertest.AssertTorn(t, Decode, []byte(task+good+`{"step_number": 2, "timing": {"sta`))
}

func FuzzDecode(f *testing.F) {
	tracertest.FuzzSeeds(f, samples+"*.json*", 2000)
	f.Fuzz(func(t *testing.T, b []byte) {
		tracertest.FuzzDecode(t, Decode, "fuzz.json", b)
		Detect(b)
	})
}
