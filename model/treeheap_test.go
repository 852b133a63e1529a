package model

import (
	"runtime"
	"testing"
)

// TestTreeHeapPerRun states the budget of what timeline holds: the live heap of the projected
// tree (with the projector's id maps) grows by at most 2.4 KB a small run (one turn, one step,
// one model call, a session of its own). Measured 1.9 KB with these events (Run 448 B, Session
// 240, Turn 288, Step 288, ModelCall 224, two history entries 224, the id strings and the
// maps); a log's origins add 5×32 bytes more. It counts bytes after a collection, 1000 runs
// against 10 000, never time.
func TestTreeHeapPerRun(t *testing.T) {
	const small, large, budget = 1000, 10000, 2400
	live := func(n int) uint64 {
		p := NewProjector()
		f := &feeder{sink: p.Apply}
		f.smallRuns(0, n, 1)
		tree := p.Tree()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(tree)
		runtime.KeepAlive(p)
		return ms.HeapAlloc
	}
	a, b := live(small), live(large)
	per := (float64(b) - float64(a)) / (large - small)
	t.Logf("live heap %d B with %d runs, %d B with %d: %.0f B a run", a, small, b, large, per)
	if per > budget {
		t.Errorf("the tree holds %.0f bytes a small run, budget %d", per, budget)
	}
}
