package tracer

import (
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// TestPayloads reads real logs of the formats that record payloads and counts the model calls
// with an input and an output and the tool calls with arguments and a result. The counts are
// those of the logs' own payload attributes (gen_ai.input.messages, input.value,
// ai.prompt.messages, span_data.input, a run's inputs, …; counted with grep on each file).
// A cut policy cuts them, --redact drops them.
func TestPayloads(t *testing.T) {
	tests := []struct {
		file               string
		in, out, args, res int
	}{
		{"../testdata/samples/otel/langgraph_01_react_multi_step.otlp.json", 3, 3, 3, 3},       // OpenInference input.value / output.value
		{"../testdata/samples/otel/openai-agents_01_two_turn_tools.otlp.json", 3, 3, 2, 2},     // OpenInference
		{"../testdata/traces/otel-more/vercel-ai-v7-genai_01_tool_loop.otlp.json", 3, 3, 3, 2}, // GenAI gen_ai.*.messages, gen_ai.tool.call.*
		{"../testdata/traces/otel-more/vercel-ai_01_tool_loop.otlp.json", 3, 3, 2, 2},          // AI SDK ai.prompt.messages, ai.response.*
		{"../testdata/traces/openai-agents/06_parallel_tools.jsonl", 2, 2, 3, 3},               // OpenAI Agents span_data input/output
		{"../testdata/samples/langgraph/01_react_multi_step.run_tree.json", 3, 3, 3, 3},        // LangChain run inputs/outputs
		{"../testdata/samples/langgraph/01_react_multi_step.langsmith_payloads.jsonl", 3, 3, 3, 3},
		{"../testdata/samples/langgraph/01_react_multi_step.stream_events_v2.jsonl", 3, 3, 3, 3}, // streamEvents data.input/output
		// smolagents memory steps: model_input_messages, model_output, tool_calls arguments, and
		// a step's observations as the result of its call when it made one (2 of 4 calls)
		{"../testdata/samples-py/smolagents/01_multi_step_tools.steps.json", 3, 3, 4, 2},
		{"../testdata/samples-py/smolagents/01_multi_step_tools.otlp.json", 3, 3, 4, 4}, // OpenInference-smolagents
		// OpenAI Agents run streams: the response's output items, tool_called arguments and
		// tool_output (the model input is not streamed)
		{"../testdata/samples/openai-agents-streams/01_multi_step_tools.stream.jsonl", 0, 3, 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.file[strings.LastIndex(tt.file, "/")+1:], func(t *testing.T) {
			for _, pol := range []model.PayloadPolicy{{}, {Max: 16}, {Redact: true}} {
				proj := model.NewProjector()
				if _, err := Read([]string{tt.file}, Options{Payload: pol}, proj.Apply); err != nil {
					t.Fatal(err)
				}
				var in, out, args, res, long int
				has := func(attrs map[string]any, k string) int {
					v, present := attrs[k]
					s, ok := model.AttrString(v)
					if !ok && present && v != nil && pol.IsZero() {
						return 1 // a structured value (smolagents, Pi arguments) until a policy serializes it
					}
					if !ok || s == "" {
						return 0
					}
					if len(s) > 16+len("… [100000 bytes cut]") {
						long++
					}
					return 1
				}
				proj.Tree().Walk(func(n any, _ int) bool {
					switch c := n.(type) {
					case *model.ModelCall:
						in, out = in+has(c.Attrs, model.AttrInput), out+has(c.Attrs, model.AttrOutput)
					case *model.ToolCall:
						args, res = args+has(c.Attrs, model.AttrArgs), res+has(c.Attrs, model.AttrResult)
					}
					return true
				})
				want := [4]int{tt.in, tt.out, tt.args, tt.res}
				if pol.Redact {
					want = [4]int{}
				}
				if got := [4]int{in, out, args, res}; got != want {
					t.Errorf("policy %+v: input, output, args, result = %v, want %v", pol, got, want)
				}
				if pol.Max > 0 && long > 0 {
					t.Errorf("policy %+v: %d payloads longer than the cut", pol, long)
				}
			}
		})
	}
}
