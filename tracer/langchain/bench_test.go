package langchain

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// chainRuns is n run records, one per line, each the parent of the next: a chain n runs deep.
func chainRuns(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `{"id":"%08d-0000-4000-8000-000000000000","name":"node","run_type":"chain","trace_id":"00000000-0000-4000-8000-000000000000","start_time":"2026-01-01T00:00:00Z","end_time":"2026-01-01T00:00:01Z","status":"success"`, i)
		if i > 0 {
			fmt.Fprintf(&b, `,"parent_run_id":"%08d-0000-4000-8000-000000000000"`, i-1)
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// BenchmarkDeepChain decodes a parent_run_id chain 10k and 100k runs deep (item 5 of issue 9:
// the cycle check walked every run's ancestors, quadratic in the depth).
func BenchmarkDeepChain(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		in := chainRuns(n)
		b.Run(fmt.Sprintf("%dk", n/1000), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				events := 0
				em := ingest.NewEmitter(func(*model.Event) { events++ })
				em.File = "chain.jsonl"
				if err := DecodeRuns(bytes.NewReader(in), em); err != nil || events == 0 {
					b.Fatalf("events %d, err %v", events, err)
				}
			}
		})
	}
}
