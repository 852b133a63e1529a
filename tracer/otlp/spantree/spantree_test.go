package spantree

import (
	"reflect"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/model"
)

func TestParseTime(t *testing.T) {
	want := time.Date(2026, 8, 22, 10, 15, 2, 118000000, time.UTC)
	for _, in := range []string{"2026-08-22T10:15:02.118Z", "2026-08-22T10:15:02.118+00:00", "2026-08-22T12:15:02.118+02:00",
		"2026-08-22T10:15:02.118", "2026-08-22 10:15:02.118", "1787393702118", "1787393702.118", "1787393702118000000", "1787393702118000"} {
		got, err := ParseTime(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "0", "null"} {
		if got, err := ParseTime(in); err != nil || !got.IsZero() {
			t.Errorf("ParseTime(%q) = %v, %v; want zero", in, got, err)
		}
	}
	for _, in := range []string{"yesterday", "NaN", "12:00"} {
		if _, err := ParseTime(in); err == nil {
			t.Errorf("ParseTime(%q): want an error", in)
		}
	}
}

func TestUnflatten(t *testing.T) {
	flat := map[string]any{
		"llm.output_messages.0.message.role":                                 "assistant",
		"llm.output_messages.0.message.tool_calls.1.tool_call.function.name": "b",
		"llm.output_messages.0.message.tool_calls.0.tool_call.function.name": "a",
		"llm.output_messages.0.message.tool_calls.0.tool_call.id":            "call_a",
		"llm.output_messages.10.message.role":                                "tool",
		"llm.input_messages.0.message.role":                                  "user",
	}
	want := []any{
		map[string]any{"message.role": "assistant", "message.tool_calls": []any{
			map[string]any{"tool_call.function.name": "a", "tool_call.id": "call_a"},
			map[string]any{"tool_call.function.name": "b"},
		}},
		map[string]any{"message.role": "tool"},
	}
	if got := Unflatten(flat, "llm.output_messages"); !reflect.DeepEqual(got, want) {
		t.Errorf("Unflatten = %#v", got)
	}
	if Unflatten(flat, "llm.tools") != nil {
		t.Error("no key with the prefix: want nil")
	}
}

func TestClassify(t *testing.T) {
	for msg, want := range map[string]model.StopReason{
		"Error in agent run: MaxTurnsExceededError: Max turns (2) exceeded": model.StopMaxTurns,
		"Max turns exceeded":                         model.StopMaxTurns,
		"Guardrail tripwire triggered":               model.StopGuardrail,
		"OutputGuardrailTripwireTriggered: x":        model.StopGuardrail,
		"AbortError: Request was aborted.":           model.StopCancelled,
		"CancelledError":                             model.StopCancelled,
		"GraphRecursionError: Recursion limit of 25": model.StopMaxSteps,
		"TimeoutError: weather API timed out":        model.StopTimeout,
		"500 The server had an error":                model.StopError,
	} {
		if got := Classify(&model.ErrorInfo{Message: msg}); got != want {
			t.Errorf("Classify(%q) = %s, want %s", msg, got, want)
		}
	}
}
