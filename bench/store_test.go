package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/bench/otlpload"
	"github.com/lifeline-dev/lifeline/tracer/store"
)

// storeSizes are the journal sizes (spans already stored) BenchmarkStoreIngest measures at;
// LIFELINE_BENCH_STORE=small keeps the first two.
var storeSizes = []int{1_000, 10_000, 100_000}

// prefill writes a journal of n spans (whole generated agent traces, each a run of its own) into
// dir, as the store writes it, without a server.
func prefill(b *testing.B, dir string, seed uint64, n int) {
	b.Helper()
	f, err := os.Create(filepath.Join(dir, store.SpansFile))
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	const batch = 70 * otlpload.SpansPerTrace
	var line []byte
	for from := 0; from < n; from += batch {
		line, err = store.AppendJSON(line[:0], otlpload.Request(seed, from, min(from+batch, n)))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.Write(append(line, '\n')); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStoreIngest measures what one acknowledged batch (one agent trace of
// otlpload.SpansPerTrace spans, appended, fsynced, projected and indexed) costs a store that
// already holds 1k, 10k and 100k spans, and what reopening it (rebuilding the projection and
// the index from the journal in one pass) costs a span. Flat ns/op across the sizes is the
// point: the projection is incremental, a batch re-projects only the sessions it touched.
func BenchmarkStoreIngest(b *testing.B) {
	sizes := storeSizes
	if os.Getenv("LIFELINE_BENCH_STORE") == "small" {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		n -= n % otlpload.SpansPerTrace // whole traces
		b.Run(fmt.Sprintf("stored=%d", n), func(b *testing.B) {
			dir := b.TempDir()
			const seed = 7
			prefill(b, dir, seed, n)
			start := time.Now()
			st, err := store.Open(dir, store.Options{Queue: 1024})
			if err != nil {
				b.Fatal(err)
			}
			open := time.Since(start)
			defer st.Close()
			if got := st.Counters().Runs; got != n/otlpload.SpansPerTrace {
				b.Fatalf("reopened with %d runs, want %d", got, n/otlpload.SpansPerTrace)
			}
			ctx := context.Background()
			var sessions, events int
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				from := n + i*otlpload.SpansPerTrace
				req := otlpload.Request(seed, from, from+otlpload.SpansPerTrace)
				if err := st.Append(ctx, store.Batch{Spans: req}); err != nil {
					b.Fatal(err)
				}
				if err := st.Wait(ctx); err != nil {
					b.Fatal(err)
				}
				w := st.Work()
				sessions += w.Sessions
				events += w.Events
			}
			b.StopTimer()
			if got, want := st.Counters().Runs, n/otlpload.SpansPerTrace+b.N; got != want {
				b.Fatalf("%d runs after the batches, want %d", got, want)
			}
			b.ReportMetric(float64(open.Nanoseconds())/float64(max(n, 1)), "reopen-ns/span")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/otlpload.SpansPerTrace, "ns/span")
			b.ReportMetric(float64(sessions)/float64(b.N), "sessions-reprojected/op")
			b.ReportMetric(float64(events)/float64(b.N), "events-reprojected/op")
		})
	}
}
