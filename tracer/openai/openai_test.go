package openai_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
	"github.com/lifeline-dev/lifeline/tracer/openai"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func read(t *testing.T, files ...string) ([]model.Event, *tracer.Report) {
	t.Helper()
	var evs []model.Event
	rep, err := tracer.Read(files, tracer.Options{}, func(e *model.Event) { evs = append(evs, *e) })
	if err != nil {
		t.Fatalf("read %v: %v", files, err)
	}
	for _, f := range rep.Files {
		if f.Format != openai.Name {
			t.Fatalf("%s detected as %s, want %s", f.File, f.Format, openai.Name)
		}
	}
	return evs, rep
}

// TestSamples asserts the ground truth of the real samples (testdata/samples/README.md).
func TestSamples(t *testing.T) {
	want := map[string]model.Summary{
		"01_two_turn_tools.jsonl": {Sessions: 1, Runs: 1, Turns: 1, Steps: 3, ModelCalls: 3, ToolCalls: 2},
		"02_tool_error.jsonl":     {Sessions: 1, Runs: 1, Turns: 1, Steps: 2, ModelCalls: 2, ToolCalls: 1, FailedToolCalls: 1},
	}
	files := spantree.Fixtures("../../testdata/samples/openai-agents", ".jsonl")
	if len(files) != len(want) {
		t.Fatalf("found %d samples, want %d", len(files), len(want))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, rep := read(t, f)
			if len(rep.Errors) > 0 {
				t.Errorf("decode errors: %v", rep.Errors)
			}
			tree := model.Project(evs)
			if s := tree.Summarize(); s != want[filepath.Base(f)] {
				t.Errorf("summary %+v, want %+v", s, want[filepath.Base(f)])
			}
			r := tree.Sessions[0].Runs[0]
			if r.Status != model.StatusCompleted || r.StopReason != model.StopGoalReached {
				t.Errorf("run %s %s", r.Status, r.StopReason)
			}
			tracertest.AssertClean(t, evs)
		})
	}
}

// TestFixtures walks testdata/traces/*/ for OpenAI Agents exports with <name>.expected.json.
func TestFixtures(t *testing.T) {
	n := 0
	for _, f := range spantree.Fixtures("../../testdata/traces", ".jsonl") {
		exp := strings.TrimSuffix(f, ".jsonl") + ".expected.json"
		if _, err := os.Stat(exp); err != nil || openai.Detect(head(t, f)) == 0 {
			continue
		}
		n++
		t.Run(strings.TrimPrefix(f, "../../testdata/traces/"), func(t *testing.T) {
			want, err := spantree.LoadExpected(exp)
			if err != nil {
				t.Fatal(err)
			}
			evs, rep := read(t, f)
			if len(rep.Errors) > 0 {
				t.Errorf("decode errors: %v", rep.Errors)
			}
			if d := want.Compare(model.Project(evs)); d != "" {
				t.Error(d)
			}
			tracertest.AssertClean(t, evs)
		})
	}
	if n == 0 {
		t.Skip("no OpenAI Agents fixtures under testdata/traces")
	}
}

func head(t *testing.T, f string) []byte {
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) > tracer.HeadSize {
		b = b[:tracer.HeadSize]
	}
	return b
}

// TestGolden compares the canonical conversion of every sample with its golden file.
func TestGolden(t *testing.T) {
	files := append(spantree.Fixtures("../../testdata/samples/openai-agents", ".jsonl"), spantree.Fixtures("../../testdata/traces/openai-agents", ".jsonl")...)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, _ := read(t, f)
			var buf bytes.Buffer
			for i := range evs {
				b, _ := evs[i].MarshalLine()
				buf.Write(b)
				buf.WriteByte('\n')
			}
			golden := filepath.Join("testdata", strings.TrimSuffix(filepath.Base(f), ".jsonl")+".canonical.jsonl")
			if *update {
				os.MkdirAll("testdata", 0o755)
				os.WriteFile(golden, buf.Bytes(), 0o644)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(want, buf.Bytes()) {
				t.Errorf("canonical output differs from %s (run go test -update and review the diff)", golden)
			}
		})
	}
}

func decodeString(t *testing.T, input string) ([]model.Event, []*ingest.DecodeError) {
	t.Helper()
	return tracertest.Decode(t, openai.Decode, "in.jsonl", []byte(input))
}

func sample(t *testing.T) []string {
	b, err := os.ReadFile("../../testdata/samples/openai-agents/01_two_turn_tools.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// TestBatchAndPretty: the same export as {"data":[…]} batches, as a JSON array and pretty-printed
// gives the same tree.
func TestBatchAndPretty(t *testing.T) {
	lines := sample(t)
	batch := `{"data":[` + strings.Join(lines[:5], ",") + "]}\n" + `{"data":[` + strings.Join(lines[5:], ",") + "]}\n"
	array := "[" + strings.Join(lines, ",") + "]"
	pretty := "{\n \"data\": [\n  " + strings.Join(lines, ",\n  ") + "\n ]\n}\n"
	for name, in := range map[string]string{"batch": batch, "array": array, "pretty": pretty} {
		t.Run(name, func(t *testing.T) {
			evs, errs := decodeString(t, in)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if s := model.Project(evs).Summarize(); s != (model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 3, ModelCalls: 3, ToolCalls: 2}) {
				t.Errorf("summary %+v", s)
			}
			if name == "pretty" {
				for _, e := range evs {
					if e.Type == model.ToolStart && e.Name == "get_weather" && e.Origin.Line != 5 {
						t.Errorf("get_weather origin line %d, want 5", e.Origin.Line)
					}
				}
			}
		})
	}
}

// TestPythonShapes: Python exports (µs "+00:00" times, response spans, no task/turn spans,
// "Max turns exceeded" on the agent span) map the same way.
func TestPythonShapes(t *testing.T) {
	tr := "trace_3f2a8c1e9b7d4f60a1c2e3d4f5a6b7c8"
	sp := func(id, parent, start, end, data, err string) string {
		return fmt.Sprintf(`{"object":"trace.span","id":%q,"trace_id":%q,"parent_id":%s,"started_at":%q,"ended_at":%q,"span_data":%s,"error":%s}`, id, tr, parent, start, end, data, err)
	}
	in := strings.Join([]string{
		`{"object":"trace","id":"` + tr + `","workflow_name":"Agent workflow","group_id":null,"metadata":null}`,
		sp("span_000000000000000000000002", `"span_000000000000000000000001"`, "2026-08-22T10:15:01.002311+00:00", "2026-08-22T10:15:02.100004+00:00", `{"type":"response","response_id":"resp_1","usage":{"requests":1,"input_tokens":812,"output_tokens":37,"total_tokens":849}}`, "null"),
		sp("span_000000000000000000000003", `"span_000000000000000000000001"`, "2026-08-22T10:15:02.118412+00:00", "2026-08-22T10:15:02.410227+00:00", `{"type":"function","name":"get_weather","input":"{}","output":null,"mcp_data":null}`, `{"message":"Error running tool","data":{"tool_name":"get_weather","error":"weather API timed out"}}`),
		sp("span_000000000000000000000004", `"span_000000000000000000000001"`, "2026-08-22T10:15:02.5", "2026-08-22T10:15:03", `{"type":"response","response_id":"resp_2"}`, "null"),
		sp("span_000000000000000000000001", "null", "2026-08-22T10:15:01.000102+00:00", "2026-08-22T10:15:03.411000+00:00", `{"type":"agent","name":"Weather agent","handoffs":[],"tools":["get_weather"],"output_type":"str"}`, `{"message":"Max turns exceeded","data":{"max_turns":2}}`),
	}, "\n")
	evs, errs := decodeString(t, in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tree := model.Project(evs)
	if s := tree.Summarize(); s != (model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 2, ModelCalls: 2, ToolCalls: 1, FailedToolCalls: 1}) {
		t.Errorf("summary %+v", s)
	}
	r := tree.Sessions[0].Runs[0]
	if r.Status != model.StatusFailed || r.StopReason != model.StopMaxTurns || r.Agent != "Weather agent" {
		t.Errorf("run %s %s %s", r.Status, r.StopReason, r.Agent)
	}
	tracertest.AssertClean(t, evs)
}

func TestBadInput(t *testing.T) {
	lines := sample(t)
	cyc := `{"object":"trace.span","id":"span_a","trace_id":"trace_dcbde66869f14928907e5a279ec9a8a9","parent_id":"span_b","started_at":null,"ended_at":null,"span_data":{"type":"custom","name":"x","data":{}},"error":null}` + "\n" +
		`{"object":"trace.span","id":"span_b","trace_id":"trace_dcbde66869f14928907e5a279ec9a8a9","parent_id":"span_a","started_at":null,"ended_at":null,"span_data":{"type":"custom","name":"y","data":{}},"error":null}`
	tests := []struct {
		name, in, want string
		line           int
	}{
		{"not json", "garbage\n" + strings.Join(lines, "\n"), "not JSON", 1},
		{"torn", strings.Join(lines, "\n") + "\n" + lines[1][:50], "truncated last line", 12},
		{"wrong types", strings.Join(lines, "\n") + "\n" + `{"object":"trace.span","id":5,"trace_id":"t","span_data":{}}`, `field "id" is a number`, 12},
		{"bad time", strings.Replace(strings.Join(lines, "\n"), `"2026-11-29T07:23:57.519Z"`, `"yesterday"`, 1), "not a time", 3},
		{"invalid utf8", strings.Join(lines, "\n") + "\n" + `{"object":"trace.span","id":"span_x` + "\xff" + `"}`, "invalid UTF-8", 12},
		{"duplicate", strings.Join(lines, "\n") + "\n" + lines[2], "duplicate span id", 12},
		{"cycle", strings.Join(lines, "\n") + "\n" + cyc, "cycle", 12},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, errs := decodeString(t, tt.in)
			ok := false
			for _, e := range errs {
				if e.Line == tt.line && strings.Contains(e.Error(), tt.want) && strings.HasPrefix(e.Error(), fmt.Sprintf("in.jsonl:%d:", tt.line)) {
					ok = true
				}
			}
			if !ok {
				t.Errorf("want %q at line %d, got %v", tt.want, tt.line, errs)
			}
			if s := model.Project(evs).Summarize(); s.Steps < 3 {
				t.Errorf("summary %+v: the good records must still be read", s)
			}
		})
	}
}

// TestNoTimesAndOpen: spans without timestamps keep their order (tree timeless); a task that
// never ended leaves the run open.
func TestNoTimesAndOpen(t *testing.T) {
	var out []string
	for _, l := range sample(t) {
		l = strings.NewReplacer(`"started_at":"`, `"x_s":"`, `"ended_at":"`, `"x_e":"`).Replace(l)
		out = append(out, l)
	}
	evs, _ := decodeString(t, strings.Join(out, "\n"))
	tree := model.Project(evs)
	if !tree.Timeless {
		t.Error("tree with no times must be timeless")
	}
	if tree.Sessions[0].Runs[0].Ended {
		t.Error("a run whose spans never ended must stay open")
	}
}

func FuzzDecode(f *testing.F) {
	tracertest.FuzzSeeds(f, "../../testdata/samples/openai-agents/0[12]_*.jsonl", 2000)
	tracertest.FuzzSeeds(f, "../../testdata/samples-py/openai-agents/0[456]_*.jsonl", 2000)
	f.Add([]byte(`{"data":[{"object":"trace.span","id":"span_1","trace_id":"trace_1","parent_id":null,"span_data":{"type":"agent","name":"a"},"error":{"message":"Error in agent run","data":{"error":"AbortError: x"}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		errs := tracertest.FuzzDecode(t, openai.Decode, "fuzz", data)
		openai.Detect(data)
		for _, e := range errs {
			if e.Line < 1 {
				t.Fatalf("error without a line: %v", e)
			}
		}
	})
}

// TestPythonSamples walks testdata/samples-py/openai-agents (openai-agents 0.24 Python, the real
// OpenAIResponsesModel over a scripted transport): counts, statuses and stop reasons are the
// truth the generator observed. The approval scenarios were resumed from RunState.to_json() in a
// second process: the full log is one run of two turns (the first ends awaiting_approval, then
// approval/resolve), the _paused log alone is one waiting run.
func TestPythonSamples(t *testing.T) {
	n := tracertest.EachViewWith(t, "../../testdata/samples-py/openai-agents/*.expected.json", []string{".jsonl"}, func(t *testing.T, v tracertest.View) {
		if openai.Detect(v.Data) == 0 {
			t.Fatal("not detected")
		}
		evs := tracertest.DecodeClean(t, openai.Decode, filepath.Base(v.Path), v.Data)
		tree := tracertest.AssertTree(t, evs, v.Want)
		var resolved []model.Decision
		asked := 0
		for _, ev := range evs {
			switch ev.Type {
			case model.ApprovalResolve:
				resolved = append(resolved, ev.Decision)
			case model.ApprovalRequest:
				asked++
			}
		}
		if strings.Contains(v.Scenario, "approval") && asked != 1 {
			t.Errorf("%d approval requests, want 1 (one call needs approval)", asked)
		}
		want := map[string]model.Decision{"04_approval_approve": model.DecisionApproved, "05_approval_reject": model.DecisionDenied,
			"12_chat_approval_approve": model.DecisionApproved}[v.Scenario]
		if want != "" && (len(resolved) != 1 || resolved[0] != want) {
			t.Errorf("approval decisions = %v, want [%s]", resolved, want)
		}
		if run := tree.Sessions[0].Runs[0]; len(run.Turns) == 2 && run.Turns[0].StopReason != model.StopAwaitingApproval {
			t.Errorf("turn 1 stop reason = %s, want awaiting_approval", run.Turns[0].StopReason)
		}
	})
	if n != 16 {
		t.Fatalf("%d views, want 16", n)
	}
}

// TestJSApprovals: the OpenAI Agents JS SDK resumed from RunState.fromString in a second process
// (testdata/traces/openai-agents/gen-approval.mjs) keeps the trace id and numbers its turns from 1
// again: the full log is one run of two turns, the first ending awaiting_approval, and the
// approval is resolved as the resume decided; a rejected call (the SDK's function span "Tool
// execution was not approved.") is no tool call.
func TestJSApprovals(t *testing.T) {
	for name, want := range map[string]model.Decision{"12_approval_approve": model.DecisionApproved, "13_approval_reject": model.DecisionDenied} {
		t.Run(name, func(t *testing.T) {
			b, err := os.ReadFile("../../testdata/traces/openai-agents/" + name + ".jsonl")
			if err != nil {
				t.Fatal(err)
			}
			evs := tracertest.DecodeClean(t, openai.Decode, name+".jsonl", b)
			var got []model.Decision
			for _, ev := range evs {
				if ev.Type == model.ApprovalResolve {
					got = append(got, ev.Decision)
				}
			}
			if len(got) != 1 || got[0] != want {
				t.Errorf("decisions %v, want [%s]", got, want)
			}
			run := model.Project(evs).Sessions[0].Runs[0]
			if len(run.Turns) != 2 || run.Turns[0].StopReason != model.StopAwaitingApproval {
				t.Errorf("%d turns, want 2, the first ending awaiting_approval", len(run.Turns))
			}
		})
	}
}
