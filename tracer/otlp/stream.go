package otlp

import (
	"fmt"
	"slices"

	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// Stream decodes a growing OTLP JSON Lines input one record at a time, as Decode would read the
// same lines: a journal that is appended to (lifeline serve's spans.jsonl) is read once, not
// again from its start at each new record. Provisional shows the input as if it ended at the
// last record without changing what later records do.
//
// Unlike Decode, a Stream re-places a span that arrives for a trace it already emitted (more
// than spantree.FlushLag spans after the trace's root span: a Collector sending several
// batches at once): it remembers the lines each trace's spans came from, reports the trace in
// Late, and Replay emits the traces given again, from their lines read again (Reread), as one
// read with all their spans would have emitted them. Its user replaces what those traces
// emitted before.
type Stream struct {
	em *ingest.Emitter
	b  *spantree.Builder
	// lines are the lines (records) each trace's spans were read from, in order.
	lines map[string][]int32
	late  []string // traces the last Record gave a span after they were emitted
	// Flushing, when set, is called with a trace's id as the Stream (or Replay) starts
	// emitting it.
	Flushing func(traceID string)
	// Reread returns the record Record was given at line (for Replay).
	Reread func(line int) ([]byte, error)
}

// NewStream returns a Stream emitting to em.
func NewStream(em *ingest.Emitter) *Stream {
	s := &Stream{em: em, b: spantree.NewBuilder(Name, em), lines: map[string][]int32{}}
	s.b.Late = func(sp *spantree.Span) {
		if n := len(s.late); n == 0 || s.late[n-1] != sp.TraceID {
			for _, id := range s.late {
				if id == sp.TraceID {
					return
				}
			}
			s.late = append(s.late, sp.TraceID)
		}
	}
	s.b.Flushing = s.flushing
	return s
}

func (s *Stream) flushing(id string) {
	if s.Flushing != nil {
		s.Flushing(id)
	}
}

// Record reads one JSON Lines record (one line, without its newline) at 1-based line number
// line of the input: its spans are added and the traces it completes are emitted, its problems
// reported at that line. It returns how many spans it read and whether the record had no
// problem. The traces it gave spans after they were emitted are in Late until the next Record.
func (s *Stream) Record(data []byte, line int) (spans int, clean bool) {
	s.late = s.late[:0]
	p := parser{rec: spantree.Record{Data: data, Line: line}, out: &parsed{}}
	p.record()
	for _, e := range p.out.errs {
		s.em.Error(e.line, e.err)
	}
	for _, sp := range p.out.spans {
		s.b.Add(sp)
		if l := s.lines[sp.TraceID]; len(l) == 0 || l[len(l)-1] != int32(line) {
			s.lines[sp.TraceID] = append(l, int32(line))
		}
	}
	s.b.FlushReady()
	return len(p.out.spans), len(p.out.errs) == 0
}

// Late are the traces the last Record gave spans after they had been emitted, in the order
// those spans came: Replay re-places them.
func (s *Stream) Late() []string { return s.late }

// Replay emits to em (a new Emitter: its numbering and shared state are its own) the traces
// given, one after another in that order, each from every span the Stream read of it (the
// lines it came from read again with Reread), as if they were the whole input; sessions are
// those whose traces are replayed, and the Stream's later traces read what the replay recorded
// about them (sessions, call ids, conversations). A line that cannot be read again is an error.
func (s *Stream) Replay(em *ingest.Emitter, traces []string, sessions map[string]bool) error {
	b, err := s.replay(em, traces, s.flushing)
	if err != nil {
		return err
	}
	s.b.Absorb(b, sessions)
	return nil
}

// Events emits to em (a new Emitter) the traces given as Replay does, from their lines read
// again, and leaves the Stream as it was: no Flushing call, nothing recorded about them. A
// reader that dropped what the traces emitted (lifeline serve keeps a session's events only
// while it is recent) gets them back this way. It may run while other Events calls do, not
// while Record, Replay or Provisional does.
func (s *Stream) Events(em *ingest.Emitter, traces []string) error {
	_, err := s.replay(em, traces, nil)
	return err
}

// replay emits the traces given from their lines read again, through a Builder of its own.
func (s *Stream) replay(em *ingest.Emitter, traces []string, flushing func(string)) (*spantree.Builder, error) {
	want := make(map[string][]*spantree.Span, len(traces))
	var lines []int32
	for _, id := range traces {
		want[id] = nil
		lines = append(lines, s.lines[id]...)
	}
	slices.Sort(lines)
	lines = slices.Compact(lines)
	for _, line := range lines {
		data, err := s.Reread(int(line))
		if err != nil {
			return nil, fmt.Errorf("otlp: reading a trace's records again: %w", err)
		}
		p := parser{rec: spantree.Record{Data: data, Line: int(line)}, out: &parsed{}}
		p.record()
		for _, sp := range p.out.spans {
			if l, ok := want[sp.TraceID]; ok {
				want[sp.TraceID] = append(l, sp)
			}
		}
	}
	b := spantree.NewBuilder(Name, em)
	b.Flushing = flushing
	for _, id := range traces {
		for _, sp := range want[id] {
			b.Add(sp)
		}
		b.Flush()
	}
	return b, nil
}

// Provisional emits to em (a Fork of the Stream's Emitter) what the end of the input would
// emit now: the traces still held, as they stand. The Stream is left as it was.
func (s *Stream) Provisional(em *ingest.Emitter) {
	s.b.Provisional(em).Flush()
}

// Held is how many spans the Stream holds: those of the traces not emitted yet.
func (s *Stream) Held() int { return s.b.Held() }
