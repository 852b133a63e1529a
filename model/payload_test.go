package model

import (
	"fmt"
	"strings"
	"testing"
)

func TestPayloadPolicy(t *testing.T) {
	long := strings.Repeat("é", 50) // 100 bytes
	tests := []struct {
		name  string
		pol   PayloadPolicy
		ev    Event
		attrs map[string]any
		text  string
	}{
		{"zero changes nothing", PayloadPolicy{}, Event{Text: long, Attrs: map[string]any{AttrInput: long}}, map[string]any{AttrInput: long}, long},
		{"cut on a rune boundary", PayloadPolicy{Max: 11}, Event{Text: long, Attrs: map[string]any{AttrArgs: long, "span_id": "x"}},
			map[string]any{AttrArgs: strings.Repeat("é", 5) + "… [90 bytes cut]", "span_id": "x"}, strings.Repeat("é", 5) + "… [90 bytes cut]"},
		{"short kept", PayloadPolicy{Max: 200}, Event{Attrs: map[string]any{AttrResult: "ok"}}, map[string]any{AttrResult: "ok"}, ""},
		{"canonical JSON text", PayloadPolicy{Max: 4}, Event{Attrs: map[string]any{AttrOutput: JSONText(`"abcdefgh"`)}}, map[string]any{AttrOutput: "abcd… [4 bytes cut]"}, ""},
		{"object serialized", PayloadPolicy{Max: 100}, Event{Attrs: map[string]any{AttrArgs: map[string]any{"path": "a"}}}, map[string]any{AttrArgs: `{"path":"a"}`}, ""},
		{"redact", PayloadPolicy{Redact: true}, Event{Text: "secret", Attrs: map[string]any{AttrInput: "p", AttrOutput: "c", "finish_reason": "stop"}}, map[string]any{"finish_reason": "stop"}, ""},
		{"redact all", PayloadPolicy{Redact: true}, Event{Attrs: map[string]any{AttrArgs: "p"}}, nil, ""},
		{"model/end text is the output", PayloadPolicy{Redact: true}, Event{Type: ModelEnd, Attrs: map[string]any{"text": "answer", "stop_reason": "stop"}}, map[string]any{"stop_reason": "stop"}, ""},
		{"text of another event is not a payload", PayloadPolicy{Redact: true}, Event{Type: ModelStart, Attrs: map[string]any{"text": "x"}}, map[string]any{"text": "x"}, ""},
		{"tool/end observations cut", PayloadPolicy{Max: 3}, Event{Type: ToolEnd, Attrs: map[string]any{"observations": "abcdef"}}, map[string]any{"observations": "abc… [3 bytes cut]"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			orig := map[string]any{}
			for k, v := range tt.ev.Attrs {
				orig[k] = v
			}
			before := tt.ev.Attrs
			ev := tt.ev
			tt.pol.Apply(&ev)
			if len(ev.Attrs) != len(tt.attrs) {
				t.Fatalf("attrs %v, want %v", ev.Attrs, tt.attrs)
			}
			for k, v := range tt.attrs {
				if ev.Attrs[k] != v {
					t.Errorf("%s = %#v, want %#v", k, ev.Attrs[k], v)
				}
			}
			if ev.Text != tt.text {
				t.Errorf("text %q, want %q", ev.Text, tt.text)
			}
			for k, v := range orig {
				if fmt.Sprint(before[k]) != fmt.Sprint(v) {
					t.Errorf("the event's own map was written: %s", k)
				}
			}
		})
	}
}
