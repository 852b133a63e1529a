package otlp_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
)

// span builds one file-exporter line holding one span.
func span(trace, id, parent, name string, start, end int64, attrs string) string {
	return fmt.Sprintf(`{"resourceSpans":[{"resource":{},"scopeSpans":[{"scope":{"name":"t"},"spans":[{"traceId":%q,"spanId":%q,"parentSpanId":%q,"name":%q,"kind":1,"startTimeUnixNano":"%d","endTimeUnixNano":"%d","attributes":[%s],"status":{}}]}]}]}`,
		trace, id, parent, name, start, end, attrs)
}

func kv(k, v string) string {
	return fmt.Sprintf(`{"key":%q,"value":{"stringValue":%q}}`, k, v)
}

const tr = "5b8efff798038103d269b633813fc60c"

// good is a small GenAI trace: agent → chat → execute_tool (children first, as exporters write).
var good = []string{
	span(tr, "0000000000000002", "0000000000000001", "chat gpt", 1785157563000000000, 1785157563100000000,
		kv("gen_ai.operation.name", "chat")+","+kv("gen_ai.request.model", "gpt-4.1")+","+
			kv("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"get_weather","arguments":{}}]}]`)),
	span(tr, "0000000000000003", "0000000000000001", "execute_tool get_weather", 1785157563120000000, 1785157563410000000,
		kv("gen_ai.operation.name", "execute_tool")+","+kv("gen_ai.tool.name", "get_weather")+","+kv("gen_ai.tool.call.id", "call_1")),
	span(tr, "0000000000000004", "0000000000000001", "chat gpt", 1785157563500000000, 1785157563600000000,
		kv("gen_ai.operation.name", "chat")+","+`{"key":"gen_ai.response.finish_reasons","value":{"arrayValue":{"values":[{"stringValue":"stop"}]}}}`),
	span(tr, "0000000000000001", "", "invoke_agent Weather", 1785157562900000000, 1785157563700000000,
		kv("gen_ai.operation.name", "invoke_agent")+","+kv("gen_ai.agent.name", "Weather")+","+kv("gen_ai.conversation.id", "conv_1")),
}

func TestGenAI(t *testing.T) {
	evs, errs := decodeString(t, strings.Join(good, "\n")+"\n")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tree := model.Project(evs)
	s := tree.Summarize()
	if s != (model.Summary{Sessions: 1, Runs: 1, Turns: 1, Steps: 2, ModelCalls: 2, ToolCalls: 1}) {
		t.Errorf("summary %+v", s)
	}
	r := tree.Sessions[0].Runs[0]
	if tree.Sessions[0].ID != "conv_1" || r.Agent != "Weather" || r.Status != model.StatusCompleted || r.StopReason != model.StopGoalReached {
		t.Errorf("session %s run %+v", tree.Sessions[0].ID, r)
	}
	if id := r.Turns[0].Steps[0].ToolCalls[0].ID; id != "call_1" {
		t.Errorf("tool call id %s, want call_1 (matched by gen_ai.tool.call.id)", id)
	}
	assertClean(t, evs)
}

// TestBadInput: every malformed record is reported with file:line and the rest is still read.
func TestBadInput(t *testing.T) {
	cycle := []string{
		span(tr, "000000000000000a", "000000000000000b", "x", 1, 2, kv("gen_ai.operation.name", "chat")),
		span(tr, "000000000000000b", "000000000000000a", "y", 1, 2, kv("gen_ai.operation.name", "invoke_agent")),
	}
	tests := []struct {
		name  string
		lines []string
		want  string // substring of the error
		line  int
		steps int
	}{
		{"not json", append([]string{"hello world"}, good...), "not JSON", 1, 2},
		{"torn last line", append(append([]string{}, good...), good[0][:80]), "truncated last line", 5, 2},
		{"wrong types", append([]string{`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":7,"spanId":"00000000000000ff","name":["x"],"startTimeUnixNano":true}]}]}]}`}, good...), "expected a string", 1, 2},
		{"resourceSpans not array", append([]string{`{"resourceSpans":{"a":1}}`}, good...), "expected an array", 1, 2},
		{"invalid utf8", append([]string{strings.Replace(span(tr, "00000000000000fe", "", "badX", 1, 2, ""), "badX", "bad\xff", 1)}, good...), "invalid UTF-8", 1, 2},
		{"duplicate ids", append(append([]string{}, good...), good[1]), "duplicate span id", 5, 2},
		{"cycle", append(append([]string{}, good...), cycle...), "cycle", 5, 3},
		{"bad id", append([]string{span(tr, "zz!", "", "x", 1, 2, "")}, good...), "neither hex nor base64", 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, errs := decodeString(t, strings.Join(tt.lines, "\n"))
			found := false
			for _, e := range errs {
				if strings.Contains(e.Error(), tt.want) && e.Line == tt.line && strings.HasPrefix(e.Error(), fmt.Sprintf("in.jsonl:%d: ", tt.line)) {
					found = true
				}
			}
			if !found {
				t.Errorf("want an error with %q at in.jsonl:%d, got %v", tt.want, tt.line, errs)
			}
			if got := model.Project(evs).Summarize().Steps; got < tt.steps {
				t.Errorf("steps %d, want ≥ %d: the good records must still be read", got, tt.steps)
			}
		})
	}
}

// TestHugeLine: a 100 MB line after the first (which may be a whole one-document body) is
// skipped and reported, the lines around it still read.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 100 MB")
	}
	var b strings.Builder
	b.WriteString(good[0] + "\n")
	b.WriteString(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"name":"`)
	b.WriteString(strings.Repeat("x", 100<<20))
	b.WriteString("\"}]}]}]}\n")
	b.WriteString(strings.Join(good[1:], "\n"))
	evs, errs := decodeString(t, b.String())
	if len(errs) != 1 || errs[0].Line != 2 || !strings.Contains(errs[0].Error(), "longer than") {
		t.Errorf("errors %.300v", errs)
	}
	if s := model.Project(evs).Summarize(); s.Steps != 2 {
		t.Errorf("summary %+v", s)
	}
}

// TestOpenAndDangling: a span that never ended is reported open (not dropped); a subtree whose
// root was never exported is kept and marked.
func TestOpenAndDangling(t *testing.T) {
	open := span(tr, "0000000000000009", "0000000000000001", "execute_tool slow", 1785157563650000000, 0, kv("gen_ai.operation.name", "execute_tool"))
	evs, _ := decodeString(t, strings.Join(append([]string{open}, good...), "\n"))
	tree := model.Project(evs)
	var openCalls int
	tree.Walk(func(n any, _ int) bool {
		if c, ok := n.(*model.ToolCall); ok && !c.Ended {
			openCalls++
		}
		return true
	})
	if openCalls != 1 {
		t.Errorf("open tool calls %d, want 1", openCalls)
	}
	// drop the root: the children form a run with a dangling parent
	evs, _ = decodeString(t, strings.Join(good[:3], "\n"))
	tree = model.Project(evs)
	r := tree.Sessions[0].Runs[0]
	if !contains(r.Inferred, "parent") || r.Turns[0].Steps[0].ModelCalls[0] == nil {
		t.Errorf("dangling run %+v", r)
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// TestTimeUnits: OTLP times as numbers, ms by mistake, or RFC 3339 strings all land on the
// same instant.
func TestTimeUnits(t *testing.T) {
	in := strings.ReplaceAll(good[3], `"startTimeUnixNano":"1785157562900000000"`, `"startTimeUnixNano":1785157562900`)
	in = strings.ReplaceAll(in, `"endTimeUnixNano":"1785157563700000000"`, `"endTimeUnixNano":"2026-07-27T13:06:03.7Z"`)
	evs, errs := decodeString(t, strings.Join(append(append([]string{}, good[:3]...), in), "\n"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	r := model.Project(evs).Sessions[0].Runs[0]
	if r.Start.UnixNano() != 1785157562900000000 || r.End.UnixNano() != 1785157563700000000 {
		t.Errorf("run %v – %v", r.Start, r.End)
	}
}

// TestBodyLines: in a pretty-printed OTLP/HTTP body, origins point at the line of each span.
func TestBodyLines(t *testing.T) {
	f := "../../testdata/samples/otel/langgraph_01_react_multi_step.otlp.json"
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	evs, _ := decodeString(t, string(data))
	for _, e := range evs {
		if e.Type != model.ModelStart {
			continue
		}
		l := e.Origin.Line
		if l < 2 || !strings.Contains(lines[l-1], "{") || !strings.Contains(lines[l], `"traceId"`) {
			t.Errorf("model/start origin line %d is not a span's first line: %q %q", l, lines[l-1], lines[l])
		}
	}
}

func FuzzDecode(f *testing.F) {
	tracertest.FuzzSeeds(f, "../../testdata/samples/otel/openai-agents_01_two_turn_tools.otlp.json", 2000)
	tracertest.FuzzSeeds(f, "../../testdata/traces/otel/openai-agents_02_model_error.otlp.json", 2000)
	tracertest.FuzzSeeds(f, "../../testdata/samples-py/smolagents/0[35]_*.otlp.json", 2000)
	f.Add([]byte(strings.Join(good, "\n")))
	f.Add([]byte(`{"resourceSpans":[{"instrumentationLibrarySpans":[{"spans":[{"spanId":"AAAAAAAAAAE=","traceId":"","name":"x"}]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		errs := tracertest.FuzzDecode(t, otlp.Decode, "fuzz", data)
		otlp.Detect(data)
		for _, e := range errs {
			if e.Line < 1 {
				t.Fatalf("error without a line: %v", e)
			}
		}
	})
}
