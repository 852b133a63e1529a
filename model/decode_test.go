package model

import (
	"strings"
	"testing"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
)

func TestDecodeLineErrors(t *testing.T) {
	tests := []struct {
		name, line, want string
	}{
		{"not json", `hello`, "not a JSON object"},
		{"truncated", `{"v":1,"seq":1,"type":"session/st`, "malformed JSON"},
		{"unknown type", `{"v":1,"seq":1,"type":"run/finish","session_id":"s"}`, `field "type"`},
		{"missing ids", `{"v":1,"seq":2,"type":"step/start","session_id":"s","run_id":"r"}`, `field "turn_id": required on step/start`},
		{"wrong type", `{"v":1,"seq":"2","type":"session/start","session_id":"s"}`, `field "seq": expected int64`},
		{"bad version", `{"v":2,"seq":1,"type":"session/start","session_id":"s"}`, `field "v"`},
		{"invalid utf8", "{\"v\":1,\"seq\":1,\"type\":\"session/start\",\"session_id\":\"\xff\"}", "invalid UTF-8"},
		{"bad status", `{"v":1,"seq":1,"type":"run/end","session_id":"s","run_id":"r","status":"done"}`, `field "status"`},
		{"bad stop reason", `{"v":1,"seq":1,"type":"run/end","session_id":"s","run_id":"r","status":"failed","stop_reason":"oops"}`, `field "stop_reason"`},
		{"empty", ``, "empty line"},
		{"huge", `{"v":1,"text":"` + strings.Repeat("x", MaxLineBytes) + `"}`, "exceeds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeLine([]byte(tt.line))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("DecodeLine error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestDecodeLineRoundTrip(t *testing.T) {
	for _, ev := range readLog(t, "../testdata/invariants/L13_side_effect_twice_after_resume.jsonl") {
		b, err := ev.MarshalLine()
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeLine(b)
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := back.MarshalLine()
		if string(b) != string(b2) {
			t.Fatalf("round trip changed the event:\n%s\n%s", b, b2)
		}
	}
}

// FuzzDecodeLine: no input makes the decoder, projection or checker panic.
func FuzzDecodeLine(f *testing.F) {
	f.Add([]byte(`{"v":1,"seq":1,"ts":"2026-11-29T08:00:00Z","type":"session/start","session_id":"s"}`))
	f.Add([]byte(`{"v":1,"seq":2,"type":"tool/end","session_id":"s","run_id":"r","turn_id":"t","step_id":"x","call_id":"c","outcome":"ok"}`))
	f.Add([]byte(`{"v":1,"seq":3,"type":"run/end","session_id":"s","run_id":"r","status":"completed","stop_reason":"goal_reached"}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, err := DecodeLine(line)
		if err != nil {
			return
		}
		Project([]Event{ev})
		CheckEvents([]Event{ev, ev})
	})
}

// FuzzFastDecode: whenever the fast decoder accepts a line, the general decoder decodes it to
// exactly the same event.
func FuzzFastDecode(f *testing.F) {
	for _, ev := range readLog(f, "../testdata/invariants/L13_side_effect_twice_after_resume.jsonl") {
		b, _ := ev.MarshalLine()
		f.Add(b)
	}
	f.Add([]byte(`{"v":1,"seq":1,"type":"message","session_id":"s\u00e9\n","text":"a\"b\\c\ud83d\ude00","attrs":{"x":[1,2.5,-3e2,true,null,{"y":"z"}]},"consumes":[],"unknown":1}`))
	f.Add([]byte(`{"v":1,"seq":1,"type":"message","session_id":"s","v":2}`))
	f.Add([]byte(`{"v":1,"seq":1,"ts":"2026-11-29T08:00:00+01:00","type":"message","session_id":"s","usage":{"input_tokens":1,"cost_usd":0.5},"error":{"message":"m","retryable":true},"origin":{"file":"f","line":3}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		if !utf8.Valid(line) {
			return // DecodeLine rejects it before either decoder runs
		}
		var fast Event
		if decodeFast(line, &fast, NewInterner(), false) != nil {
			return
		}
		var slow Event
		if err := jsonv2.Unmarshal(line, &slow, jsonv2.RejectUnknownMembers(false)); err != nil {
			t.Fatalf("fast decoder accepted what the general one rejects (%v): %q", err, line)
		}
		a, _ := fast.MarshalLine()
		b, _ := slow.MarshalLine()
		if string(a) != string(b) || !fast.TS.Equal(slow.TS) {
			t.Fatalf("decoders differ on %q:\nfast %s\nslow %s", line, a, b)
		}
	})
}
