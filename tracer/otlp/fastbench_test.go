package otlp

import (
	"bytes"
	"os"
	"testing"
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
