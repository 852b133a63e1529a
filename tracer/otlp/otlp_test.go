package otlp_test

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// read decodes files through the tracer registry (auto-detection included).
func read(t *testing.T, format string, files ...string) ([]model.Event, *tracer.Report) {
	t.Helper()
	var evs []model.Event
	rep, err := tracer.Read(files, tracer.Options{Format: format}, func(e *model.Event) { evs = append(evs, *e) })
	if err != nil {
		t.Fatalf("read %v: %v", files, err)
	}
	for _, f := range rep.Files {
		if format == "" && f.Format != otlp.Name {
			t.Fatalf("%s detected as %s, want %s", f.File, f.Format, otlp.Name)
		}
	}
	return evs, rep
}

// TestSamples asserts the ground truth of the real samples (testdata/samples/README.md).
func TestSamples(t *testing.T) {
	want := map[string]string{
		"openai-agents_01_two_turn_tools.otlp.json": `{"sessions":1,"runs":1,"turns":1,"steps":3,"model_calls":3,"tool_calls":2,"failed_tool_calls":0,"runs_detail":[{"status":"completed","stop_reason":"goal_reached"}]}`,
		"langgraph_01_react_multi_step.otlp.json":   `{"sessions":1,"runs":1,"turns":1,"steps":3,"model_calls":3,"tool_calls":3,"failed_tool_calls":0,"runs_detail":[{"status":"completed","stop_reason":"goal_reached"}]}`,
	}
	files := spantree.Fixtures("../../testdata/samples/otel", ".otlp.json")
	if len(files) != len(want) {
		t.Fatalf("found %d samples, want %d", len(files), len(want))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			exp := mustExpected(t, want[filepath.Base(f)])
			evs, rep := read(t, "", f)
			if len(rep.Errors) > 0 {
				t.Errorf("decode errors: %v", rep.Errors)
			}
			if d := exp.Compare(model.Project(evs)); d != "" {
				t.Error(d)
			}
			assertClean(t, evs)
		})
	}
}

func mustExpected(t *testing.T, js string) *spantree.Expected {
	t.Helper()
	p := filepath.Join(t.TempDir(), "e.json")
	os.WriteFile(p, []byte(js), 0o644)
	e, err := spantree.LoadExpected(p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// assertClean checks the converted events against the invariants: no error-severity finding.
func assertClean(t *testing.T, evs []model.Event) {
	t.Helper()
	for _, e := range evs {
		if err := e.Validate(); err != nil {
			t.Errorf("%s: invalid event %s: %v", e.Where(), e.Type, err)
		}
	}
	cp := append([]model.Event(nil), evs...)
	for _, f := range model.CheckEvents(cp) {
		if f.Severity == model.SevError {
			t.Errorf("finding: %s", f)
		}
	}
}

// TestFixtures walks testdata/traces/*/ for OTLP fixtures with a <name>.expected.json beside them.
func TestFixtures(t *testing.T) {
	files := spantree.Fixtures("../../testdata/traces", ".otlp.json", ".otlp.jsonl")
	if len(files) == 0 {
		t.Skip("no OTLP fixtures under testdata/traces")
	}
	for _, f := range files {
		exp := strings.TrimSuffix(strings.TrimSuffix(f, ".otlp.json"), ".otlp.jsonl") + ".expected.json"
		if _, err := os.Stat(exp); err != nil {
			continue
		}
		t.Run(strings.TrimPrefix(f, "../../testdata/traces/"), func(t *testing.T) {
			want, err := spantree.LoadExpected(exp)
			if err != nil {
				t.Fatal(err)
			}
			evs, _ := read(t, "", f)
			if d := want.Compare(model.Project(evs)); d != "" {
				t.Error(d)
			}
			assertClean(t, evs)
		})
	}
}

// TestGolden compares the canonical conversion of every sample with its golden file
// (go test -update rewrites them).
func TestGolden(t *testing.T) {
	files := append(spantree.Fixtures("../../testdata/samples/otel", ".otlp.json"), spantree.Fixtures("../../testdata/traces/otel", ".otlp.json")...)
	files = append(files, spantree.Fixtures("../../testdata/traces/otel-more", ".otlp.json", ".otlp.jsonl")...)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			evs, _ := read(t, "", f)
			var buf bytes.Buffer
			for i := range evs {
				b, err := evs[i].MarshalLine()
				if err != nil {
					t.Fatal(err)
				}
				buf.Write(b)
				buf.WriteByte('\n')
			}
			base := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".otlp.json"), ".otlp.jsonl")
			golden := filepath.Join("testdata", base+".canonical.jsonl")
			if *update {
				os.MkdirAll("testdata", 0o755)
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
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
	var evs []model.Event
	em := ingest.NewEmitter(func(e *model.Event) { evs = append(evs, *e) })
	em.File = "in.jsonl"
	if err := otlp.Decode(strings.NewReader(input), em); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	errs, _ := em.Errors()
	return evs, errs
}

// TestPythonSmolagents reads the OpenInference-instrumented smolagents runs of
// testdata/samples-py/smolagents (the OTLP/HTTP JSON body made by the OTel SDK's encode_spans +
// protobuf MessageToJson: base64 ids, enum names): counts, statuses and stop reasons are the
// truth the generator observed.
func TestPythonSmolagents(t *testing.T) {
	n := tracertest.EachViewWith(t, "../../testdata/samples-py/smolagents/*.expected.json", []string{".otlp.json"}, func(t *testing.T, v tracertest.View) {
		if otlp.Detect(v.Data) == 0 {
			t.Fatal("not detected")
		}
		// where the body lacks the observed end (04_aborted: the AGENT span never exported),
		// <name>.inferable.json says what it shows; 06_two_runs: the second run() is its own
		// trace with no session id, and joins the first's session because its first model input
		// extends the first trace's (the agent's memory)
		evs := tracertest.DecodeClean(t, otlp.Decode, filepath.Base(v.Path), v.Data)
		tracertest.AssertTree(t, evs, v.Want)
	})
	if n < 8 {
		t.Fatalf("only %d views", n)
	}
}

// oiTrace is one OTLP line: an OpenInference AGENT span with one LLM span whose input messages
// are msgs (role, text pairs).
func oiTrace(trace string, t0 int, msgs ...string) string {
	var attrs []string
	attrs = append(attrs, `{"key":"openinference.span.kind","value":{"stringValue":"LLM"}}`)
	for i := 0; i+1 < len(msgs); i += 2 {
		attrs = append(attrs, fmt.Sprintf(`{"key":"llm.input_messages.%d.message.role","value":{"stringValue":%q}}`, i/2, msgs[i]),
			fmt.Sprintf(`{"key":"llm.input_messages.%d.message.content","value":{"stringValue":%q}}`, i/2, msgs[i+1]))
	}
	agent := fmt.Sprintf(`{"traceId":"%s","spanId":"a%015d","name":"agent","startTimeUnixNano":"%d000000000","endTimeUnixNano":"%d000000000","attributes":[{"key":"openinference.span.kind","value":{"stringValue":"AGENT"}}]}`, trace, t0, t0, t0+2)
	llm := fmt.Sprintf(`{"traceId":"%s","spanId":"b%015d","parentSpanId":"a%015d","name":"llm","startTimeUnixNano":"%d000000000","endTimeUnixNano":"%d000000000","attributes":[%s]}`, trace, t0, t0, t0, t0+1, strings.Join(attrs, ","))
	return `{"resourceSpans":[{"scopeSpans":[{"spans":[` + llm + `,` + agent + `]}]}]}` + "\n"
}

// TestConversationJoin: a trace with no session id whose first model input strictly extends an
// earlier trace's model input (two messages or more of it) joins that trace's session; one that
// only shares the system prompt and first question does not.
func TestConversationJoin(t *testing.T) {
	const a, b, c = "0000000000000000000000000000000a", "0000000000000000000000000000000b", "0000000000000000000000000000000c"
	in := oiTrace(a, 100, "system", "be brief", "user", "weather?") +
		oiTrace(b, 200, "system", "be brief", "user", "weather?", "assistant", "sunny", "user", "and time?") +
		oiTrace(c, 300, "system", "be brief", "user", "weather?")
	evs, errs := decodeString(t, in)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tree := model.Project(evs)
	if s := tree.Summarize(); s.Sessions != 2 || s.Runs != 3 {
		t.Fatalf("%+v, want 2 sessions (a and b joined, c alone), 3 runs", s)
	}
	if len(tree.Sessions[0].Runs) != 2 {
		t.Errorf("first session has %d runs, want 2", len(tree.Sessions[0].Runs))
	}
}

// TestUnexportedParent: a chain span (a step) whose parent span was never exported leaves its run
// open, unless the run stopped with a requested call unanswered (an approval pause: waiting); an
// agent span whose parent is elsewhere ended with its own end.
func TestUnexportedParent(t *testing.T) {
	span := func(id, parent, kind string, extra ...string) string {
		attrs := append([]string{fmt.Sprintf(`{"key":"openinference.span.kind","value":{"stringValue":%q}}`, kind)}, extra...)
		p := ""
		if parent != "" {
			p = `"parentSpanId":"` + parent + `",`
		}
		return fmt.Sprintf(`{"traceId":"0000000000000000000000000000000a","spanId":"%s",%s"name":"%s","startTimeUnixNano":"1000000000","endTimeUnixNano":"2000000000","attributes":[%s]}`, id, p, kind, strings.Join(attrs, ","))
	}
	call := `{"key":"llm.output_messages.0.message.tool_calls.0.tool_call.id","value":{"stringValue":"c1"}}`
	name := `{"key":"llm.output_messages.0.message.tool_calls.0.tool_call.function.name","value":{"stringValue":"refund"}}`
	body := func(spans ...string) string {
		return `{"resourceSpans":[{"scopeSpans":[{"spans":[` + strings.Join(spans, ",") + `]}]}]}` + "\n"
	}
	for _, tt := range []struct {
		name, in string
		want     model.RunStatus
	}{
		{"step under an unexported agent", body(span("0000000000000002", "0000000000000009", "LLM"), span("0000000000000001", "00000000000000ff", "CHAIN")), model.StatusRunning},
		{"paused at a requested call", body(span("0000000000000002", "0000000000000001", "LLM", call, name), span("0000000000000001", "00000000000000ff", "CHAIN")), model.StatusWaiting},
		{"agent with a remote parent", body(span("0000000000000002", "0000000000000001", "LLM"), span("0000000000000001", "00000000000000ff", "AGENT")), model.StatusCompleted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			evs, errs := decodeString(t, tt.in)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if got := model.Project(evs).Sessions[0].Runs[0].Status; got != tt.want {
				t.Errorf("status %s, want %s", got, tt.want)
			}
		})
	}
}

// TestDecodeSeekerPlacesLateSpans decodes the late-span fixture from an io.ReadSeeker (read
// ahead, then put back) and from a plain reader (a pipe: the late span is reported).
func TestDecodeSeekerPlacesLateSpans(t *testing.T) {
	data, err := os.ReadFile("../../testdata/traces/otel-late/late_child.otlp.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		r      io.Reader
		tools  int
		errors int
	}{
		{"seeker", bytes.NewReader(data), 22, 0},
		{"pipe", io.MultiReader(bytes.NewReader(data)), 21, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var evs []model.Event
			em := ingest.NewEmitter(func(e *model.Event) { evs = append(evs, *e) })
			if err := otlp.Decode(c.r, em); err != nil {
				t.Fatal(err)
			}
			errs, _ := em.Errors()
			tools := model.Project(evs).Summarize().ToolCalls
			if tools != c.tools || len(errs) != c.errors {
				t.Errorf("%d tool calls and %d errors (%v), want %d and %d", tools, len(errs), errs, c.tools, c.errors)
			}
		})
	}
}
