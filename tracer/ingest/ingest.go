// Package ingest holds what every tracer shares: the Emitter that numbers and stamps the
// canonical events a decoder produces, DecodeError (file:line and what was expected), and a line
// reader that survives huge lines and a torn last line.
package ingest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/lifeline-dev/lifeline/model"
)

// DecodeError is one bad record: where it is and what was expected. Decoders report it and go on
// reading the rest of the file.
type DecodeError struct {
	File string
	Line int
	Err  error
}

func (e *DecodeError) Error() string {
	if e.Line == 0 {
		return fmt.Sprintf("%s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// MaxErrors is how many decode errors an Emitter keeps per file; later ones are only counted.
const MaxErrors = 100

// Emitter receives the events a decoder makes. It sets the schema version, numbers events per
// session (when the decoder leaves Seq 0) and fills Origin.File. One Emitter may be shared by the
// decoders of several files so that one session spread over several files keeps one order.
type Emitter struct {
	// File names the input being decoded (set by the caller before each file).
	File string
	// Sink receives every event. It must not keep the *Event after it returns (decoders may reuse
	// it); what the event points to (attrs, slices, origin) stays valid.
	Sink func(*model.Event)

	seq     map[string]*int64
	shared  *Shared
	errs    []*DecodeError
	dropped int
	events  int
	// lastSession and lastSeq cache the seq counter of the last event's session.
	lastSession string
	lastSeq     *int64
	// base is the emitter a Fork numbers on from.
	base *Emitter
}

// Fork returns an emitter passing events to sink that numbers each session's events on from
// where e has got, leaving e's counters as they are: a provisional reading of an input that goes
// on (see spantree's Builder.Provisional). e must not be used while the fork is.
func (e *Emitter) Fork(sink func(*model.Event)) *Emitter {
	return &Emitter{File: e.File, Sink: sink, seq: map[string]*int64{}, base: e}
}

// seqOf is the last seq given to session's events, looking through the bases.
func (e *Emitter) seqOf(session string) int64 {
	if n := e.seq[session]; n != nil {
		return *n
	}
	if e.base != nil {
		return e.base.seqOf(session)
	}
	return 0
}

// Seq is the last seq e gave session's events (looking through the bases of a Fork).
func (e *Emitter) Seq(session string) int64 { return e.seqOf(session) }

// SetSeq makes n the last seq given to session's events: its next event is numbered n+1 (a
// session whose events were emitted again by another Emitter, see otlp.Stream.Replay).
func (e *Emitter) SetSeq(session string, n int64) {
	c := e.seq[session]
	if c == nil {
		c = new(int64)
		e.seq[session] = c
	}
	*c = n
	e.lastSession, e.lastSeq = session, c
}

// NewEmitter returns an emitter that passes events to sink.
func NewEmitter(sink func(*model.Event)) *Emitter {
	return &Emitter{Sink: sink, seq: map[string]*int64{}}
}

// Emit stamps and passes on one event. Decoders of formats without their own order leave Seq 0
// and the emitter numbers events per session in emission order; an event with a Seq keeps it.
func (e *Emitter) Emit(ev *model.Event) {
	if ev.V == 0 {
		ev.V = model.SchemaVersion
	}
	if e.lastSeq == nil || e.lastSession != ev.SessionID {
		n := e.seq[ev.SessionID]
		if n == nil {
			n = new(int64)
			if e.base != nil {
				*n = e.base.seqOf(ev.SessionID)
			}
			e.seq[ev.SessionID] = n
		}
		e.lastSession, e.lastSeq = ev.SessionID, n
	}
	if ev.Seq == 0 {
		*e.lastSeq++
		ev.Seq = *e.lastSeq
	} else if ev.Seq > *e.lastSeq {
		*e.lastSeq = ev.Seq
	}
	if ev.Origin != nil && ev.Origin.File == "" {
		ev.Origin.File = e.File
	}
	e.events++
	e.Sink(ev)
}

// At returns an Origin for the given line of the current file.
func (e *Emitter) At(line int) *model.Origin { return &model.Origin{File: e.File, Line: line} }

// Errorf records a decode error at a line of the current file.
func (e *Emitter) Errorf(line int, format string, args ...any) {
	e.Error(line, fmt.Errorf(format, args...))
}

// Error records a decode error at a line of the current file.
func (e *Emitter) Error(line int, err error) {
	if len(e.errs) >= MaxErrors {
		e.dropped++
		return
	}
	e.errs = append(e.errs, &DecodeError{File: e.File, Line: line, Err: err})
}

// Errors returns the decode errors recorded so far, and how many more were not kept.
func (e *Emitter) Errors() ([]*DecodeError, int) { return e.errs, e.dropped }

// Events returns how many events were emitted.
func (e *Emitter) Events() int { return e.events }

// MaxLine is the longest line a LineReader returns (larger lines are skipped with ErrLineTooLong),
// but for the first line of an input, which may be up to MaxDocument.
const MaxLine = 64 << 20

// MaxDocument is the longest first line a LineReader returns: a one-document JSON input (an
// OTLP/HTTP body, a run tree, a {"data":[…]} export) written on one line.
const MaxDocument = 1 << 30

// ErrLineTooLong reports a line longer than MaxLine.
var ErrLineTooLong = errors.New("line too long")

// ErrTornLine reports a last line without its newline that is not complete JSON: the file was
// truncated while being written.
var ErrTornLine = errors.New("truncated last line (no newline at end of file)")

// LineReader reads lines with their 1-based numbers. Unlike bufio.Scanner it skips an over-long
// line (reporting it) and keeps reading, so one bad line never hides the rest of a file.
type LineReader struct {
	r    *bufio.Reader
	line int
	buf  []byte
	// Max overrides MaxLine when > 0 (and MaxDocument for the first line when First is 0).
	Max int
	// First overrides the limit of the first line when > 0.
	First int
}

// NewLineReader returns a LineReader over r.
func NewLineReader(r io.Reader) *LineReader {
	return &LineReader{r: bufio.NewReaderSize(r, 1<<20)}
}

// Next returns the next line (without its line ending), its number and an error. A skipped
// over-long line returns ErrLineTooLong with its number; the caller reports it and calls Next
// again. At the end it returns io.EOF. Final reports whether the line had no newline (the last
// line of a file that may have been cut while being written).
func (l *LineReader) Next() (line []byte, num int, final bool, err error) {
	max := l.Max
	switch {
	case l.line == 0 && l.First > 0:
		max = l.First
	case max > 0:
	case l.line == 0:
		max = MaxDocument
	default:
		max = MaxLine
	}
	l.buf = l.buf[:0]
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > max {
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF {
			if len(l.buf) == 0 && !tooLong {
				return nil, l.line, false, io.EOF
			}
			l.line++
			if tooLong {
				return nil, l.line, true, ErrLineTooLong
			}
			return bytes.TrimRight(l.buf, "\r"), l.line, true, nil
		}
		if err != nil {
			return nil, l.line, false, err
		}
		l.line++
		if tooLong {
			return nil, l.line, false, ErrLineTooLong
		}
		return bytes.TrimRight(l.buf[:len(l.buf)-1], "\r"), l.line, false, nil
	}
}

// Reopener is implemented by the reader a decoder is given when its input can be read again from
// its start (a regular file, not a pipe): a decoder may read it once ahead, say to learn which
// records belong together before it emits anything (the OTLP reader finding the traces whose
// spans come far apart, see otlp.Decode), and then read the reader itself.
type Reopener interface {
	// Reopen returns the input again from its first byte; the caller closes it.
	Reopen() (io.ReadCloser, error)
}
