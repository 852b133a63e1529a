package model

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

func TestUsageAddSaturates(t *testing.T) {
	maxU := Usage{InputTokens: math.MaxInt64, OutputTokens: math.MaxInt64, CachedTokens: math.MaxInt64, CostUSD: math.MaxFloat64}
	minU := Usage{InputTokens: math.MinInt64, OutputTokens: -1, CostUSD: -math.MaxFloat64}
	tests := []struct {
		name      string
		a, b      Usage
		want      Usage
		saturated bool
	}{
		{"small", Usage{InputTokens: 1, OutputTokens: 2, CachedTokens: 3, CostUSD: 0.5}, Usage{InputTokens: 10, OutputTokens: 20, CostUSD: 0.25},
			Usage{InputTokens: 11, OutputTokens: 22, CachedTokens: 3, CostUSD: 0.75}, false},
		{"two MaxInt64 token counts", maxU, maxU, maxU, true},
		{"one over", Usage{InputTokens: math.MaxInt64}, Usage{InputTokens: 1}, Usage{InputTokens: math.MaxInt64}, true},
		{"negative wrap", minU, minU, Usage{InputTokens: math.MinInt64, OutputTokens: -2, CostUSD: -math.MaxFloat64}, true},
		{"mixed signs do not saturate", Usage{InputTokens: math.MaxInt64}, Usage{InputTokens: math.MinInt64}, Usage{InputTokens: -1}, false},
		{"cost overflow", Usage{CostUSD: 1e308}, Usage{CostUSD: 1e308}, Usage{CostUSD: math.MaxFloat64}, true},
		{"NaN cost", Usage{CostUSD: math.Inf(1)}, Usage{CostUSD: math.Inf(-1)}, Usage{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.a.Add(tt.b)
			if got != tt.want {
				t.Fatalf("Add = %+v, want %+v", got, tt.want)
			}
			if got.Saturated() != tt.saturated {
				t.Fatalf("Saturated() = %v, want %v", got.Saturated(), tt.saturated)
			}
		})
	}
	if got := (Usage{InputTokens: math.MaxInt64, OutputTokens: math.MaxInt64}).Total(); got != math.MaxInt64 {
		t.Fatalf("Total = %d, want MaxInt64", got)
	}
}

// TestRollUpOverflow: the roll-ups of a tree whose model calls report absurd usage stay numbers
// that encoding/json can write (it fails on ±Inf) and do not wrap around.
func TestRollUpOverflow(t *testing.T) {
	evs := readLog(t, "../testdata/invariants/clean.jsonl")
	for i := range evs {
		if evs[i].Type == ModelEnd {
			evs[i].Usage = &Usage{InputTokens: math.MaxInt64, OutputTokens: math.MaxInt64, CostUSD: 1e308}
		}
	}
	tree := Project(evs)
	r := tree.Sessions[0].Runs[0]
	for what, u := range map[string]Usage{"turn": r.Turns[0].Usage, "run": r.Usage, "session": tree.Sessions[0].Usage} {
		if u.InputTokens != math.MaxInt64 || u.OutputTokens != math.MaxInt64 || u.CostUSD != math.MaxFloat64 || !u.Saturated() {
			t.Errorf("%s usage %+v, want saturated at the limits", what, u)
		}
	}
	if _, err := json.Marshal(tree); err != nil {
		t.Fatalf("tree with saturated usage is not JSON: %v", err)
	}
}

func TestElapsed(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	far := time.Date(2400, 1, 1, 0, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		start, end time.Time
		want       time.Duration
		ok         bool
	}{
		{"ordinary", t0, t0.Add(1500 * time.Millisecond), 1500 * time.Millisecond, true},
		{"negative", t0, t0.Add(-time.Second), -time.Second, true},
		{"exactly the largest duration", t0, t0.Add(math.MaxInt64), math.MaxInt64, true},
		{"374 years", t0, far, math.MaxInt64, false},
		{"374 years back", far, t0, math.MinInt64, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := Elapsed(tt.start, tt.end)
			if d != tt.want || ok != tt.ok {
				t.Fatalf("Elapsed = %v, %v; want %v, %v", d, ok, tt.want, tt.ok)
			}
		})
	}
	s := Span{Start: t0, End: far}
	if d, ok := s.DurationOK(); ok || d != math.MaxInt64 {
		t.Fatalf("DurationOK of a 374-year span = %v, %v; want saturated and not ok", d, ok)
	}
	if d, ok := (&Span{Start: t0}).DurationOK(); !ok || d != 0 {
		t.Fatalf("DurationOK of an open span = %v, %v; want 0, ok", d, ok)
	}
}

// TestClockFindings: absurd clocks are C1 findings (fixtures C1_* are checked by
// TestInvariantFixtures); an out-of-range timestamp is reported once per session, with a count.
func TestClockFindings(t *testing.T) {
	evs := readLog(t, "../testdata/invariants/clean.jsonl")
	for i := range evs {
		evs[i].TS = evs[i].TS.AddDate(-100, 0, 0) // 1926
	}
	findings := CheckEvents(evs)
	if len(findings) != 1 || findings[0].Code != "C1" || findings[0].Seq != 1 {
		t.Fatalf("want one C1 at seq 1, got %v", findings)
	}
	if msg := findings[0].Message; !strings.Contains(msg, "1926-") || !strings.Contains(msg, "(19 events of this session") {
		t.Fatalf("message %q: want the timestamp and the count", msg)
	}
	// 1970-01-01 itself (an epoch-based clock at 0) and a log without timestamps are fine.
	evs = readLog(t, "../testdata/invariants/clean.jsonl")
	for i := range evs {
		evs[i].TS = time.Unix(0, int64(i)*int64(time.Millisecond)).UTC()
	}
	if f := CheckEvents(evs); len(f) != 0 {
		t.Fatalf("clock from the epoch: %v", f)
	}
	for i := range evs {
		evs[i].TS = time.Time{}
	}
	if f := CheckEvents(evs); len(f) != 0 {
		t.Fatalf("timeless log: %v", f)
	}
}

// TestSequencerLastSeq: a seq of MaxInt64 does not wrap the expected next seq around (which held
// every later event back as if a gap had opened before it).
func TestSequencerLastSeq(t *testing.T) {
	var s Sequencer
	var got []int64
	apply := func(ev *Event) { got = append(got, ev.Seq) }
	s.Push(&Event{Seq: math.MaxInt64, SessionID: "a"}, apply)
	s.Flush(apply) // the gap 1..MaxInt64-1 is skipped
	s.Push(&Event{Seq: 5, SessionID: "a"}, apply)
	if len(got) != 2 || got[1] != 5 {
		t.Fatalf("applied %v, want the late seq 5 at once", got)
	}
}
