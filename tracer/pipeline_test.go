package tracer

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestPipeline: with Options.Pipeline the sink gets the same events in the same order as
// without, and Read returns only after the sink has had them all.
func TestPipeline(t *testing.T) {
	var log strings.Builder
	seq := 0
	line := func(typ, extra string) {
		seq++
		fmt.Fprintf(&log, `{"v":1,"seq":%d,"ts":"2026-11-29T08:00:00Z","type":%q,"session_id":"s"%s}`+"\n", seq, typ, extra)
	}
	line("session/start", "")
	for r := range 40 { // several batches of events
		run := fmt.Sprintf(`,"run_id":"r%d"`, r)
		line("run/start", run)
		turn := run + `,"turn_id":"t"`
		line("turn/start", turn)
		for s := range 10 {
			step := turn + fmt.Sprintf(`,"step_id":"r%d-s%d"`, r, s)
			line("step/start", step)
			line("tool/start", step+`,"call_id":"c","name":"x","attrs":{"args":"a long argument text that is kept as written in the log line itself"}`)
			line("tool/end", step+`,"call_id":"c","outcome":"ok"`)
			line("step/end", step+`,"outcome":"ok"`)
		}
		line("turn/end", turn+`,"outcome":"ok"`)
		line("run/end", run+`,"status":"completed","stop_reason":"goal_reached"`)
	}
	files := []string{filepath.Join(t.TempDir(), "log.jsonl")}
	if err := os.WriteFile(files[0], []byte(log.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	files = append(files, "../testdata/samples/openai-agents/02_tool_error.jsonl", "../testdata/samples/otel/langgraph_01_react_multi_step.otlp.json")
	read := func(pipeline bool) []model.Event {
		var got []model.Event
		if _, err := Read(files, Options{Pipeline: pipeline}, func(ev *model.Event) { got = append(got, *ev) }); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want := read(false)
	if len(want) < 3*pipelineBatch {
		t.Fatalf("only %d events: the test needs several batches", len(want))
	}
	got := read(true)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pipelined read gave %d events, want the %d of a plain read", len(got), len(want))
	}
}
