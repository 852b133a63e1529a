package model

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// runsLog builds a log of one session whose runs start (and end) in the order given, each naming
// the parent given (or none).
func runsLog(runs [][2]string) []Event {
	t0 := time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)
	seq := int64(0)
	ev := func(e Event) Event {
		seq++
		e.V, e.Seq, e.TS, e.SessionID, e.Source = 1, seq, t0.Add(time.Duration(seq)*time.Millisecond), "s", SourceRuntime
		return e
	}
	evs := []Event{ev(Event{Type: SessionStart})}
	for _, r := range runs {
		kind := ""
		if r[1] != "" {
			kind = "subagent"
		}
		evs = append(evs, ev(Event{Type: RunStart, RunID: r[0], ParentRunID: r[1], Kind: kind}),
			ev(Event{Type: RunEnd, RunID: r[0], Status: StatusCompleted, StopReason: StopGoalReached}))
	}
	return evs
}

func TestParentLinks(t *testing.T) {
	tests := []struct {
		name string
		runs [][2]string
		want []string // "code severity: message part"
	}{
		{"parents first", [][2]string{{"a", ""}, {"b", "a"}, {"c", "b"}, {"d", "a"}}, nil},
		{"self", [][2]string{{"a", "a"}}, []string{"L1 error: run a names itself as parent"}},
		{"two-cycle", [][2]string{{"a", "b"}, {"b", "a"}}, []string{"L1 error: run b: parent a makes a cycle"}},
		{"three-cycle", [][2]string{{"a", "c"}, {"b", "a"}, {"c", "b"}}, []string{"L1 error: run c: parent b makes a cycle"}},
		{"parent later, no cycle", [][2]string{{"b", "a"}, {"c", "b"}, {"a", ""}}, nil},
		{"parent later with its own parent, no cycle", [][2]string{{"x", ""}, {"b", "a"}, {"a", "x"}}, nil},
		{"missing parent", [][2]string{{"b", "a"}}, []string{"L1 warning: run b names parent run a, which is not in this log"}},
		{"missing grandparent, no cycle", [][2]string{{"c", "b"}, {"b", "a"}}, []string{"L1 warning: run b names parent run a, which is not in this log"}},
		{"cycle among forward references beside a tree", [][2]string{{"r", ""}, {"k", "r"}, {"a", "b"}, {"b", "k"}, {"z", "a"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range CheckEvents(runsLog(tt.runs)) {
				got = append(got, fmt.Sprintf("%s %s: %s", f.Code, f.Severity, f.Message))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("findings %q, want %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("finding %q, want %q…", got[i], tt.want[i])
				}
			}
		})
	}
}

// TestParentCycleLong: a cycle through a chain of 20 000 runs, each named as a parent before it
// starts (the worst case: every run is tracked), is found once, where it closes, and the union-find
// does not walk the chain per run (its sets hold the whole chain; each find is near-constant).
func TestParentCycleLong(t *testing.T) {
	const n = 20000
	runs := make([][2]string, 0, n)
	for i := 0; i < n; i++ {
		runs = append(runs, [2]string{fmt.Sprintf("r%d", i), fmt.Sprintf("r%d", (i+1)%n)})
	}
	findings := CheckEvents(runsLog(runs))
	if len(findings) != 1 || !strings.Contains(findings[0].Message, fmt.Sprintf("run r%d: parent r0 makes a cycle", n-1)) {
		t.Fatalf("want one cycle at r%d, got %d findings, first %v", n-1, len(findings), findings[:min(len(findings), 3)])
	}
}

// TestParentFindSteps: finds in the union-find take few steps however long the chain (union by
// rank: depth ≤ log2 n; path halving shortens it further).
func TestParentFindSteps(t *testing.T) {
	var l parentLinks
	const n = 1 << 16
	for i := uint64(1); i <= n; i++ {
		l.track(i)
		if i > 1 {
			l.union(i-1, i) // run i-1 names run i, not yet started
		}
	}
	depth := func(k uint64) int {
		d := 0
		for l.up[k] != k {
			k = l.up[k]
			d++
		}
		return d
	}
	for _, k := range []uint64{1, n / 2, n} {
		if d := depth(k); d > 16 {
			t.Fatalf("depth of %d is %d, want ≤ log2(%d) = 16", k, d, n)
		}
	}
	if top := l.top[l.find(1)]; top != n {
		t.Fatalf("top of the chain = %d, want %d", top, n)
	}
}
