package cmd

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestDeferFirstGC: map's collector stays off until its first collection (here forced with
// runtime.GC, as reaching the limit would), then the GOGC and memory limit from before are
// back; a second call while waiting does not arm again (it would restore the deferred limit);
// GOGC or GOMEMLIMIT in the environment leave everything as it is.
func TestDeferFirstGC(t *testing.T) {
	pct0, mem0 := debug.SetGCPercent(100), debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetGCPercent(pct0); debug.SetMemoryLimit(mem0) })
	const limit = 1 << 40
	for _, tc := range []struct {
		name, gogc, memlimit string
		defers               bool
	}{
		{name: "default", defers: true},
		{name: "GOGC set", gogc: "200"},
		{name: "GOMEMLIMIT set", memlimit: "1GiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("GOGC", tc.gogc)
			t.Setenv("GOMEMLIMIT", tc.memlimit)
			debug.SetGCPercent(400)
			mem := debug.SetMemoryLimit(-1)
			deferFirstGC(limit)
			deferFirstGC(limit / 2) // still waiting: no second sentinel
			pct := debug.SetGCPercent(-1)
			debug.SetGCPercent(pct)
			if got := debug.SetMemoryLimit(-1); tc.defers && (pct != -1 || got != limit) {
				t.Fatalf("before the first collection: GOGC %d, limit %d; want off, %d", pct, got, int64(limit))
			} else if !tc.defers && (pct != 400 || got != mem) {
				t.Fatalf("GOGC %d, limit %d; want 400, %d (unchanged)", pct, got, mem)
			}
			deadline := time.Now().Add(10 * time.Second)
			for gcDeferred.Load() && time.Now().Before(deadline) {
				runtime.GC()
				time.Sleep(10 * time.Millisecond)
			}
			if gcDeferred.Load() {
				t.Fatal("the sentinel's finalizer did not run")
			}
			pct = debug.SetGCPercent(-1)
			debug.SetGCPercent(pct)
			if got := debug.SetMemoryLimit(-1); pct != 400 || got != mem {
				t.Errorf("after the first collection: GOGC %d, limit %d; want 400, %d", pct, got, mem)
			}
		})
	}
}
