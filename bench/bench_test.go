// Package bench holds lifeline's end-to-end performance benchmarks (the 1 GB measurements are
// made by run.sh; these run on a generated file of LIFELINE_BENCH_SIZE, default 20MB).
package bench

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	renderjson "github.com/lifeline-dev/lifeline/render/json"
	"github.com/lifeline-dev/lifeline/tracer"
)

func generated(b *testing.B, format string) string {
	b.Helper()
	size := os.Getenv("LIFELINE_BENCH_SIZE")
	if size == "" {
		size = "20MB"
	}
	p := filepath.Join(os.TempDir(), "lifeline-bench-"+size+"."+format+".jsonl")
	if st, err := os.Stat(p); err != nil || st.Size() == 0 {
		c := exec.Command("go", "run", "./gen", "-format", format, "-size", size, "-o", p)
		c.Stderr = os.Stderr
		if err := c.Run(); err != nil {
			b.Fatal(err)
		}
	}
	st, _ := os.Stat(p)
	b.SetBytes(st.Size())
	return p
}

func timeline(b *testing.B, file string) {
	for b.Loop() {
		p := model.NewProjector()
		if _, err := tracer.Read([]string{file}, tracer.Options{Pipeline: true}, p.Apply); err != nil {
			b.Fatal(err)
		}
		if err := renderjson.Render(io.Discard, p.Tree(), renderjson.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func check(b *testing.B, file string) {
	for b.Loop() {
		c := model.NewChecker()
		if _, err := tracer.Read([]string{file}, tracer.Options{Pipeline: true}, c.Check); err != nil {
			b.Fatal(err)
		}
		c.Finish()
	}
}

func read(b *testing.B, file string) {
	for b.Loop() {
		if _, err := tracer.Read([]string{file}, tracer.Options{}, func(*model.Event) {}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTimelineOTLP: read + project + JSON render of an OTLP file (what `timeline --format json` does).
func BenchmarkTimelineOTLP(b *testing.B) { timeline(b, generated(b, "otlp")) }

// BenchmarkTimelineCanonical: the same on a canonical log.
func BenchmarkTimelineCanonical(b *testing.B) { timeline(b, generated(b, "canonical")) }

// BenchmarkCheckOTLP: read + invariant check of an OTLP file (what `check` does).
func BenchmarkCheckOTLP(b *testing.B) { check(b, generated(b, "otlp")) }

// BenchmarkCheckCanonical: the same on a canonical log.
func BenchmarkCheckCanonical(b *testing.B) { check(b, generated(b, "canonical")) }

// BenchmarkReadOTLP: decoding alone.
func BenchmarkReadOTLP(b *testing.B) { read(b, generated(b, "otlp")) }

// BenchmarkReadCanonical: decoding alone.
func BenchmarkReadCanonical(b *testing.B) { read(b, generated(b, "canonical")) }
