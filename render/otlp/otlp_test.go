package otlp

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"regexp"
	"testing"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/render/internal/rendertest"
)

func render(t testing.TB, tr *model.Tree, o Options) []byte {
	t.Helper()
	return rendertest.Output(t, func(w io.Writer) error { return Render(w, tr, o) })
}

func TestGolden(t *testing.T) {
	for _, sc := range rendertest.All(t) {
		t.Run(sc.Name, func(t *testing.T) {
			rendertest.Golden(t, sc.Name+".json", render(t, sc.Tree, Options{Findings: sc.Findings}))
		})
	}
}

var idField = regexp.MustCompile(`"(traceId|spanId|parentSpanId)":"([0-9a-f]*)"`)

// TestProtoJSON checks the encoding against the official types: with the hex ids turned into
// the base64 that protojson expects, protojson decodes the output into exactly Build's
// TracesData (so every key, enum and int64 is where the OTLP proto says).
func TestProtoJSON(t *testing.T) {
	scs := append(rendertest.All(t), rendertest.Scenario{Name: "big", Tree: rendertest.Big(2000)})
	for _, sc := range scs {
		t.Run(sc.Name, func(t *testing.T) {
			out := render(t, sc.Tree, Options{Findings: sc.Findings})
			for _, m := range idField.FindAllSubmatch(out, -1) {
				if n := len(m[2]); (string(m[1]) == "traceId" && n != 32) || (string(m[1]) != "traceId" && n != 16) {
					t.Fatalf("%s %q: wrong length", m[1], m[2])
				}
			}
			b64 := idField.ReplaceAllFunc(out, func(m []byte) []byte {
				sub := idField.FindSubmatch(m)
				raw := make([]byte, len(sub[2])/2)
				for i := range raw {
					var v byte
					for _, c := range sub[2][2*i : 2*i+2] {
						v <<= 4
						if c >= 'a' {
							v |= c - 'a' + 10
						} else {
							v |= c - '0'
						}
					}
					raw[i] = v
				}
				return []byte(`"` + string(sub[1]) + `":"` + base64.StdEncoding.EncodeToString(raw) + `"`)
			})
			var got tracepb.TracesData
			if err := protojson.Unmarshal(b64, &got); err != nil {
				t.Fatalf("protojson rejects the output: %v", err)
			}
			want := Build(sc.Tree, Options{Findings: sc.Findings})
			if !proto.Equal(&got, want) {
				t.Errorf("decoded TracesData differs from Build's")
			}
			// Enums are integers and times decimal strings.
			if bytes.Contains(out, []byte(`"SPAN_KIND_`)) || bytes.Contains(out, []byte(`"STATUS_CODE_`)) {
				t.Errorf("enum names in the output")
			}
			if regexp.MustCompile(`"(start|end)TimeUnixNano":[0-9]`).Match(out) {
				t.Errorf("times not written as strings")
			}
		})
	}
}

func TestSemconv(t *testing.T) {
	out := render(t, rendertest.Errors().Tree, Options{})
	var doc struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []struct {
					Name       string `json:"name"`
					Kind       int    `json:"kind"`
					Attributes []struct {
						Key   string         `json:"key"`
						Value map[string]any `json:"value"`
					} `json:"attributes"`
					Status struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"status"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	attr := map[string]map[string]any{}
	status := map[string]int{}
	for _, sp := range doc.ResourceSpans[0].ScopeSpans[0].Spans {
		m := map[string]any{}
		for _, a := range sp.Attributes {
			for _, v := range a.Value {
				m[a.Key] = v
			}
		}
		attr[sp.Name] = m
		status[sp.Name] = sp.Status.Code
	}
	for _, tc := range []struct{ span, key, want string }{
		{"invoke_agent researcher", "gen_ai.operation.name", "invoke_agent"},
		{"invoke_agent researcher", "gen_ai.agent.name", "researcher"},
		{"invoke_agent researcher", "gen_ai.conversation.id", "sess-err"},
		{"invoke_agent researcher", "lifeline.status", "failed"},
		{"invoke_agent researcher", "lifeline.stop_reason", "tool_error"},
		{"invoke_agent researcher", "lifeline.layer", "run"},
		{"execute_tool fetch_url", "gen_ai.operation.name", "execute_tool"},
		{"execute_tool fetch_url", "gen_ai.tool.name", "fetch_url"},
		{"execute_tool fetch_url", "gen_ai.tool.call.id", "toolu_01"},
		{"execute_tool fetch_url", "error.type", "timeout"},
		{"execute_tool fetch_url", "lifeline.step_id", "step-1"},
		{"execute_tool fetch_url", "lifeline.turn_id", "turn-1"},
		{"chat claude-sonnet", "gen_ai.request.model", "claude-sonnet"},
		{"chat claude-sonnet", "gen_ai.operation.name", "chat"},
	} {
		if got := attr[tc.span][tc.key]; got != tc.want {
			t.Errorf("%s: %s = %v, want %q", tc.span, tc.key, got, tc.want)
		}
	}
	if status["execute_tool fetch_url"] != 2 || status["invoke_agent researcher"] != 2 {
		t.Errorf("error spans lack status code 2: %v", status)
	}
	if _, ok := attr["invoke_agent researcher"]["gen_ai.usage.input_tokens"]; ok {
		t.Errorf("run span carries gen_ai.usage (double counting in backends that sum spans)")
	}
}

func TestDeterministic(t *testing.T) {
	sc := rendertest.Subagent()
	if !bytes.Equal(render(t, sc.Tree, Options{}), render(t, sc.Tree, Options{})) {
		t.Error("two renderings differ")
	}
}

func BenchmarkRender100k(b *testing.B) {
	tr := rendertest.Big(100_000)
	rendertest.Bench(b, func(w io.Writer) error { return Render(w, tr, Options{}) })
}
