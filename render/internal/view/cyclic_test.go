package view

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
)

// runsTree is one session of n runs: "siblings" all name the first run as parent (a pi session
// with n branches of one prompt), "chain" each names the one before it.
func runsTree(shape string, n int) *model.Tree {
	se := &model.Session{ID: "s"}
	for i := range n {
		r := &model.Run{ID: fmt.Sprintf("r%d", i), SessionID: "s"}
		switch {
		case i == 0:
		case shape == "siblings":
			r.ParentRunID = "r0"
		default:
			r.ParentRunID = fmt.Sprintf("r%d", i-1)
		}
		se.Runs = append(se.Runs, r)
	}
	return &model.Tree{Sessions: []*model.Session{se}}
}

// TestCyclicRuns: runs on a parent cycle, and those leading into one, stay under the session;
// the others nest under their parent.
func TestCyclicRuns(t *testing.T) {
	se := &model.Session{ID: "s"}
	for _, p := range [][2]string{{"a", ""}, {"b", "a"}, {"c", "d"}, {"d", "c"}, {"e", "c"}, {"f", "f"}, {"g", "e"}, {"h", "b"}} {
		se.Runs = append(se.Runs, &model.Run{ID: p[0], ParentRunID: p[1], SessionID: "s"})
	}
	v := Flatten(&model.Tree{Sessions: []*model.Session{se}}, nil)
	got := map[string]int{}
	for _, n := range v.Nodes {
		if n.Kind == KindRun {
			got[n.ID] = n.Depth
		}
	}
	want := map[string]int{"a": 1, "b": 2, "h": 3, "c": 1, "d": 1, "e": 1, "f": 1, "g": 1}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("depths %v, want %v", got, want)
	}
}

// TestFlattenRunsLinear: Flatten allocates about as much per run for 4k runs as for 1k, for
// sibling runs and for a parent chain (issue 9 item 5: the cycle check built a map of every run
// of the session for every run and walked all its ancestors, quadratic; 100k sibling branches
// did not render in 300 s). Bytes allocated, not time: the count does not depend on the machine.
func TestFlattenRunsLinear(t *testing.T) {
	alloc := func(tr *model.Tree) uint64 {
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		Flatten(tr, nil)
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	for _, shape := range []string{"siblings", "chain"} {
		small, big := runsTree(shape, 1000), runsTree(shape, 4000)
		a1, a4 := alloc(small), alloc(big)
		if a4 > 8*a1 {
			t.Errorf("%s: %d bytes for 1k runs, %d for 4k (×%.1f, want about ×4)", shape, a1, a4, float64(a4)/float64(a1))
		}
	}
}

// BenchmarkFlattenRuns flattens a session of 10k and 100k sibling runs and a 10k/100k run chain.
func BenchmarkFlattenRuns(b *testing.B) {
	for _, shape := range []string{"siblings", "chain"} {
		for _, n := range []int{10_000, 100_000} {
			tr := runsTree(shape, n)
			b.Run(fmt.Sprintf("%s/%dk", shape, n/1000), func(b *testing.B) {
				for b.Loop() {
					Flatten(tr, nil)
				}
			})
		}
	}
}
