package model

import (
	"reflect"
	"testing"
	"time"
)

// eventsFrom turns bytes into events over a small vocabulary of types and ids (3 bytes an
// event), so that the fuzzer reaches every path of the checker and projector: ids reused,
// nodes ended twice or never opened, parents named in any order, timestamps zero, equal,
// backwards or centuries away.
func eventsFrom(b []byte) []Event {
	types := EventTypes
	statuses := append([]RunStatus{""}, AllStatuses...)
	ids := []string{"a", "b", "c"}
	t0 := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	var evs []Event
	for i := 0; i+2 < len(b); i += 3 {
		x, y, z := b[i], b[i+1], b[i+2]
		e := Event{V: 1, Seq: int64(z % 8), Type: types[int(x)%len(types)], Source: SourceRuntime,
			SessionID: ids[y%2], RunID: "r" + ids[(y>>1)%3], TurnID: "t" + ids[(y>>3)%2], StepID: "s" + ids[(y>>4)%3],
			CallID: "c" + ids[(y>>6)%3], ConnectionID: "k", InputID: "i" + ids[z%3], Status: statuses[int(z>>3)%len(statuses)]}
		if z&0x40 != 0 {
			e.ParentRunID = "r" + ids[(x>>5)%3]
		}
		switch z >> 6 {
		case 1:
			e.TS = t0.Add(time.Duration(i) * time.Millisecond)
		case 2:
			e.TS = t0.Add(-time.Duration(i) * time.Second)
		case 3:
			e.TS = t0.AddDate(300*int(y%3)-300, 0, 0)
		}
		if x&0x10 != 0 {
			e.StopReason = StopGoalReached
		}
		if x&0x08 != 0 {
			e.Usage = &Usage{InputTokens: 1<<63 - 1, CostUSD: 1e308}
		}
		evs = append(evs, e)
	}
	return evs
}

// FuzzCheck: no input makes the checker or the projector panic, the findings are the same on
// a second pass, ordered by seq, and every roll-up is a finite number.
func FuzzCheck(f *testing.F) {
	f.Add([]byte{0, 0, 1, 4, 0, 2, 9, 0, 3, 12, 0, 4, 8, 0, 5})
	f.Add([]byte{5, 0x40, 0x41, 5, 0x42, 0x42, 8, 0, 3, 8, 0, 3})
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 3*400 {
			return
		}
		evs := eventsFrom(b)
		first := CheckEvents(evs)
		if again := CheckEvents(evs); !reflect.DeepEqual(first, again) {
			t.Fatalf("findings differ between two passes:\n%v\n%v", first, again)
		}
		for i := 1; i < len(first); i++ {
			if first[i].Seq < first[i-1].Seq {
				t.Fatalf("findings not in seq order: %v", first)
			}
		}
		tree := Project(evs)
		tree.Walk(func(n any, _ int) bool {
			var u Usage
			switch n := n.(type) {
			case *Session:
				u = n.Usage
			case *Run:
				u = n.Usage
			case *Turn:
				u = n.Usage
			case *Step:
				u = n.Usage
			}
			if u.CostUSD != FiniteCost(u.CostUSD) || u.InputTokens < 0 {
				t.Fatalf("roll-up %+v not finite or wrapped", u)
			}
			return true
		})
	})
}
