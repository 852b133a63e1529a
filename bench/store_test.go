package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"syscall"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/lifeline-dev/lifeline/bench/otlpload"
	"github.com/lifeline-dev/lifeline/tracer/receiver"
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

// BenchmarkStoreLoad is bench/serve-load.sh's load taken by the store in process:
// LIFELINE_BENCH_LOAD_SPANS spans (100,000 when unset) of generated agent traces, 512 a
// request, 8 in flight, sent by bench/otlpload over OTLP/HTTP (over OTLP/gRPC with
// LIFELINE_BENCH_LOAD_GRPC=1) to the receiver (tracer/receiver) on a loopback listener, each
// request acknowledged after its fsync; then the projection and the index catch up. It reports
// the acknowledged rate, the rate with the projection, and the live heap after the load, per
// span: for CPU profiles (-cpuprofile) of serve's ingest without the rest of the process, and
// with LIFELINE_BENCH_HEAP=FILE a heap profile of what the store keeps after the load.
func BenchmarkStoreLoad(b *testing.B) {
	n := 100_000
	if s := os.Getenv("LIFELINE_BENCH_LOAD_SPANS"); s != "" {
		fmt.Sscan(s, &n)
	}
	useGRPC := os.Getenv("LIFELINE_BENCH_LOAD_GRPC") == "1"
	for i := 0; i < b.N; i++ {
		dir := b.TempDir()
		st, err := store.Open(dir, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		rc := receiver.New(st)
		cfg := otlpload.Config{Spans: n, Batch: 512, Concurrency: 8, Seed: 3, Deadline: time.Now().Add(10 * time.Minute)}
		var stop func()
		if useGRPC {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			gs := grpc.NewServer()
			rc.RegisterGRPC(gs)
			go gs.Serve(ln)
			cfg.GRPC, stop = ln.Addr().String(), gs.Stop
		} else {
			mux := http.NewServeMux()
			rc.Register(mux)
			srv := httptest.NewServer(mux)
			cfg.URL, stop = srv.URL+receiver.TracesPath, srv.Close
		}
		ctx := context.Background()
		start, cpu0 := time.Now(), cpuTime()
		res, err := otlpload.Send(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		acked, ackCPU, ackRuns := time.Since(start), cpuTime()-cpu0, st.Counters().Runs
		if err := st.Wait(ctx); err != nil {
			b.Fatal(err)
		}
		all, allCPU := time.Since(start), cpuTime()-cpu0
		stop()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if got, want := st.Counters().Runs, (n+otlpload.SpansPerTrace-1)/otlpload.SpansPerTrace; got != want || res.Spans != int64(n) {
			b.Fatalf("%d spans acknowledged, %d runs after the load; want %d and %d", res.Spans, got, n, want)
		}
		if path := os.Getenv("LIFELINE_BENCH_HEAP"); path != "" {
			// what the store keeps after the load (-memprofile is written after it closed)
			f, err := os.Create(path)
			if err != nil {
				b.Fatal(err)
			}
			if err := errors.Join(pprof.WriteHeapProfile(f), f.Close()); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)/acked.Seconds(), "acked-spans/s")
		b.ReportMetric(float64(n)/all.Seconds(), "projected-spans/s")
		b.ReportMetric(float64(ms.HeapAlloc)/float64(n), "live-B/span")
		b.ReportMetric(float64(res.Retries), "retries")
		b.ReportMetric(float64(ackCPU.Microseconds())/float64(n), "ack-cpu-µs/span")
		b.ReportMetric(float64(ackRuns), "runs-projected-at-ack")
		b.ReportMetric(float64(allCPU.Microseconds())/float64(n), "cpu-µs/span")
		runtime.KeepAlive(st)
		st.Close()
	}
}

// cpuTime is the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
