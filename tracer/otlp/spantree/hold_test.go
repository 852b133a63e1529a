package spantree

import (
	"fmt"
	"testing"
)

// TestHoldScan checks which traces a read ahead holds back: those whose spans come farther
// apart than the window, to the line of their last span, and no other.
func TestHoldScan(t *testing.T) {
	type seen struct {
		trace string
		n     int // spans of it in a row, one a line
	}
	cases := []struct {
		name string
		in   []seen
		want map[string]int // trace → line held to
	}{
		{"well ordered", []seen{{"a", 10}, {"b", 100}, {"c", 5}, {"d", holdWindow - 1}}, map[string]int{}},
		// more spans than the window: its root may have come first, the rest after the lag
		{"one trace long", []seen{{"a", 10}, {"b", 2000}, {"c", 5}}, map[string]int{"b": 2010}},
		{"child after others", []seen{{"a", 5}, {"b", 100}, {"c", 100}, {"b", 1}, {"a", 1}}, map[string]int{"a": 207, "b": 206}},
		{"just within the window", []seen{{"a", 1}, {"b", holdWindow - 2}, {"a", 1}}, map[string]int{}},
		{"just past the window", []seen{{"a", 1}, {"b", holdWindow}, {"a", 1}}, map[string]int{"a": holdWindow + 2}},
		{"held to its last line", []seen{{"a", 1}, {"b", 100}, {"c", 100}, {"a", 1}, {"d", 100}, {"e", 100}, {"a", 1}}, map[string]int{"a": 403}},
		{"many traces between", func() []seen {
			s := []seen{{"x", 3}}
			for i := range 5000 {
				s = append(s, seen{fmt.Sprint("t", i), 2})
			}
			return append(s, seen{"x", 1})
		}(), map[string]int{"x": 3 + 5000*2 + 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewHoldScan()
			line := 0
			var all []string
			for _, x := range c.in {
				for range x.n {
					line++
					s.Seen(x.trace, line)
				}
				all = append(all, x.trace)
			}
			h := s.Holds()
			for _, id := range all {
				if got := h.Until(id); got != c.want[id] {
					t.Errorf("Until(%s) = %d, want %d", id, got, c.want[id])
				}
			}
			if h.Len() != len(c.want) {
				t.Errorf("%d traces held, want %d", h.Len(), len(c.want))
			}
			if len(s.recent) > holdWindow {
				t.Errorf("%d traces kept in the window, more than %d", len(s.recent), holdWindow)
			}
		})
	}
}
