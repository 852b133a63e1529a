package otlp

import (
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// Stream decodes a growing OTLP JSON Lines input one record at a time, as Decode would read the
// same lines: a journal that is appended to (lifeline serve's spans.jsonl) is read once, not
// again from its start at each new record. Provisional shows the input as if it ended at the
// last record without changing what later records do.
type Stream struct {
	em *ingest.Emitter
	b  *spantree.Builder
}

// NewStream returns a Stream emitting to em.
func NewStream(em *ingest.Emitter) *Stream {
	return &Stream{em: em, b: spantree.NewBuilder(Name, em)}
}

// Record reads one JSON Lines record (one line, without its newline) at 1-based line number
// line of the input: its spans are added and the traces it completes are emitted, its problems
// reported at that line. It returns how many spans it read and whether the record had no
// problem.
func (s *Stream) Record(data []byte, line int) (spans int, clean bool) {
	p := parser{rec: spantree.Record{Data: data, Line: line}, out: &parsed{}}
	p.record()
	for _, e := range p.out.errs {
		s.em.Error(e.line, e.err)
	}
	for _, sp := range p.out.spans {
		s.b.Add(sp)
	}
	s.b.FlushReady()
	return len(p.out.spans), len(p.out.errs) == 0
}

// Provisional emits to em (a Fork of the Stream's Emitter) what the end of the input would
// emit now: the traces still held, as they stand. The Stream is left as it was.
func (s *Stream) Provisional(em *ingest.Emitter) {
	s.b.Provisional(em).Flush()
}

// Held is how many spans the Stream holds: those of the traces not emitted yet.
func (s *Stream) Held() int { return s.b.Held() }
