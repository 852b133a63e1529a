package canonical

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/internal/tracertest"
)

const good = `{"v":1,"seq":1,"ts":"2026-11-29T08:00:00Z","type":"session/start","session_id":"s"}
{"v":1,"seq":2,"ts":"2026-11-29T08:00:01Z","type":"run/start","session_id":"s","run_id":"r","attempt":1}
`

func decode(t *testing.T, in string) ([]*model.Event, []*ingest.DecodeError) {
	t.Helper()
	var evs []*model.Event
	em := ingest.NewEmitter(func(ev *model.Event) { c := *ev; evs = append(evs, &c) })
	em.File = "log.jsonl"
	if err := Decode(strings.NewReader(in), em); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	errs, _ := em.Errors()
	return evs, errs
}

func TestDecodeBadInputKeepsTheRest(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		events int
		where  string
		want   string
	}{
		{"not json mid-file", good + "garbage\n" + good, 4, "log.jsonl:3:", "not a JSON object"},
		{"torn last line", good + `{"v":1,"seq":3,"type":"ru`, 2, "log.jsonl:3:", "truncated last line"},
		{"unknown type", good + `{"v":1,"seq":3,"type":"run/explode","session_id":"s"}` + "\n", 2, "log.jsonl:3:", "canonical event types"},
		{"missing ids", `{"v":1,"seq":1,"type":"tool/start","session_id":"s"}` + "\n" + good, 2, "log.jsonl:1:", `"run_id": required`},
		{"invalid utf8", good + "{\"v\":1,\"seq\":3,\"type\":\"message\",\"session_id\":\"s\",\"text\":\"\xc3\x28\"}\n", 2, "log.jsonl:3:", "invalid UTF-8"},
		{"wrong types", good + `{"v":1,"seq":3,"type":"message","session_id":["s"]}` + "\n", 2, "log.jsonl:3:", "expected string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, errs := decode(t, tt.in)
			if len(evs) != tt.events {
				t.Errorf("got %d events, want %d", len(evs), tt.events)
			}
			if len(errs) != 1 {
				t.Fatalf("want 1 error, got %v", errs)
			}
			msg := errs[0].Error()
			if !strings.HasPrefix(msg, tt.where) || !strings.Contains(msg, tt.want) {
				t.Errorf("error %q, want %q…%q", msg, tt.where, tt.want)
			}
		})
	}
}

func TestDecodeHugeLine(t *testing.T) {
	huge := `{"v":1,"seq":3,"type":"message","session_id":"s","text":"` + strings.Repeat("a", 100<<20) + "\"}\n"
	evs, errs := decode(t, good+huge+good)
	if len(evs) != 4 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "log.jsonl:3:") {
		t.Fatalf("events %d, errors %v", len(evs), errs)
	}
	if !errors.Is(errs[0], ingest.ErrLineTooLong) && !strings.Contains(errs[0].Error(), "longer than") && !strings.Contains(errs[0].Error(), "exceeds") {
		t.Fatalf("unexpected error %v", errs[0])
	}
}

func TestOriginIsLine(t *testing.T) {
	evs, _ := decode(t, "\n"+good)
	if evs[1].Origin == nil || evs[1].Origin.String() != "log.jsonl:3" {
		t.Fatalf("origin %v", evs[1].Origin)
	}
}

func TestDetect(t *testing.T) {
	if Detect([]byte(good)) == 0 {
		t.Fatal("canonical log not detected")
	}
	for _, other := range []string{`{"resourceSpans":[]}`, `{"object":"trace.span","id":"x"}`, `{"type":"agent_start"}`, ``, `[1,2]`} {
		if Detect([]byte(other)) != 0 {
			t.Errorf("detected %q as canonical", other)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(good + "x\n{\"v\":1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var evs []model.Event
		em := ingest.NewEmitter(func(ev *model.Event) { evs = append(evs, *ev) })
		em.File = "fuzz"
		if err := Decode(bytes.NewReader(data), em); err != nil {
			t.Fatal(err)
		}
		tracertest.FuzzEvents(t, evs)
		Detect(data)
	})
}
