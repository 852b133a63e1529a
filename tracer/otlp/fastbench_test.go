package otlp

import (
	"bytes"
	"os"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// BenchmarkFastRecord measures the fast reader alone (one goroutine) on the lines of the 20 MB
// bench file (see benchData in bench_test.go; run BenchmarkDecode first to generate it).
func BenchmarkFastRecord(b *testing.B) {
	data, err := os.ReadFile(os.TempDir() + "/lifeline-bench-20MB.otlp.jsonl")
	if err != nil {
		b.Skip("run BenchmarkDecode first:", err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		for i, l := range lines {
			if _, ok := fastRecord(l, i+1); !ok {
				b.Fatal("fast reader refused a line")
			}
		}
	}
}

// BenchmarkBuild measures the span builder alone: the spans of the 20 MB bench file, read once,
// are turned into events (sink does nothing) on each iteration.
func BenchmarkBuild(b *testing.B) {
	data, err := os.ReadFile(os.TempDir() + "/lifeline-bench-20MB.otlp.jsonl")
	if err != nil {
		b.Skip("run BenchmarkDecode first:", err)
	}
	var recs [][]spantree.Span
	for i, l := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		sps, ok := fastRecord(l, i+1)
		if !ok {
			b.Fatal("fast reader refused a line")
		}
		rec := make([]spantree.Span, len(sps))
		for j, sp := range sps {
			rec[j] = *sp
		}
		recs = append(recs, rec)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		em := ingest.NewEmitter(func(*model.Event) {})
		bl := spantree.NewBuilder(Name, em)
		for _, rec := range recs {
			for j := range rec {
				sp := rec[j] // the builder changes the spans it is given
				bl.Add(&sp)
			}
			bl.FlushReady()
		}
		bl.Flush()
	}
}
