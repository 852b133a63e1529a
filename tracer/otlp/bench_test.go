package otlp_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp"
)

// benchData generates (once) a 20 MB OTLP file-exporter file with bench/gen.
func benchData(b *testing.B) []byte {
	b.Helper()
	p := filepath.Join(os.TempDir(), "lifeline-bench-20MB.otlp.jsonl")
	if _, err := os.Stat(p); err != nil {
		c := exec.Command("go", "run", "../../bench/gen", "-format", "otlp", "-size", "20MB", "-o", p)
		c.Stderr = os.Stderr
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	return data
}

// BenchmarkDecode measures decoding OTLP JSON into canonical events (no projection).
func BenchmarkDecode(b *testing.B) {
	data := benchData(b)
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		n := 0
		em := ingest.NewEmitter(func(*model.Event) { n++ })
		if err := otlp.Decode(bytes.NewReader(data), em); err != nil {
			b.Fatal(err)
		}
	}
}
