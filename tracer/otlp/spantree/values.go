package spantree

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Record is one top-level JSON value of an input with where it starts.
type Record struct {
	// Data is the value's bytes (valid only during the callback).
	Data []byte
	// Line is the 1-based line the value starts on.
	Line int
	// Lines maps a byte offset inside Data to its line number (for values spread over lines).
	Lines *LineCounter
	// Final is true for the last line of the input when it had no newline (maybe torn).
	Final bool
}

// BadRecord reports a record of JSON Lines input that turned out not to be valid JSON (the
// decoders parse without validating first): a torn last line, or not JSON at all.
func BadRecord(em *ingest.Emitter, format string, rec Record, err error) {
	em.Error(rec.Line, BadRecordError(format, rec, err))
}

// BadRecordError is the error BadRecord reports.
func BadRecordError(format string, rec Record, err error) error {
	t := rec.Data
	if rec.Final && incomplete(t) {
		return fmt.Errorf("%s: %w", format, ingest.ErrTornLine)
	}
	var v any
	if jerr := json.Unmarshal(t, &v); jerr != nil {
		return fmt.Errorf("%s: not JSON (%v): expected one JSON record per line", format, jerr)
	}
	return fmt.Errorf("%s: malformed record: %v", format, err)
}

// Parallel reads records like Records but runs work on up to workers records at once (JSON
// Lines input only; a single document is worked on alone). apply receives each work result in
// input order, on the calling goroutine, so it may use the Emitter and a Builder. work must not
// keep rec.Data (nor slices of it) past its return: the buffer is reused.
func Parallel[T any](r io.Reader, em *ingest.Emitter, format string, workers int, work func(Record) T, apply func(T)) error {
	if workers < 2 {
		return Records(r, em, format, func(rec Record) { apply(work(rec)) })
	}
	type job struct {
		rec  Record
		res  T
		errs []*ingest.DecodeError
		done chan struct{}
	}
	queue := make(chan *job, 16*workers)
	// a fixed pool of workers (not a goroutine per record: their stacks stay grown)
	jobs := make(chan *job, workers)
	// line copies are recycled once worked on: work must not keep rec.Data (the decoders copy
	// what they keep)
	free := make(chan []byte, 8*workers)
	for w := 0; w < workers; w++ {
		go func() {
			for j := range jobs {
				j.res = work(j.rec)
				if cap(j.rec.Data) <= 1<<20 {
					select {
					case free <- j.rec.Data[:0]:
					default:
					}
				}
				j.rec = Record{}
				close(j.done)
			}
		}()
	}
	defer close(jobs)
	errc := make(chan error, 1)
	// Records reports line-level problems to its own emitter (an Emitter is not safe for
	// concurrent use); they travel through the queue so that they keep their place.
	side := ingest.NewEmitter(func(*model.Event) {})
	side.File = em.File
	seen := 0
	forward := func() {
		errs, _ := side.Errors()
		if len(errs) > seen {
			j := &job{errs: errs[seen:len(errs):len(errs)], done: make(chan struct{})}
			seen = len(errs)
			close(j.done)
			queue <- j
		}
	}
	go func() {
		defer func() {
			forward()
			close(queue)
		}()
		errc <- Records(r, side, format, func(rec Record) {
			forward()
			if rec.Lines != nil { // a multi-line document: its buffer is stable, no copy needed
				j := &job{res: work(rec), done: make(chan struct{})}
				close(j.done)
				queue <- j
				return
			}
			var buf []byte
			select {
			case buf = <-free:
			default:
			}
			rec.Data = append(buf, rec.Data...)
			j := &job{rec: rec, done: make(chan struct{})}
			queue <- j
			jobs <- j
		})
	}()
	for j := range queue {
		<-j.done
		if j.errs != nil {
			for _, e := range j.errs {
				em.Error(e.Line, e.Err)
			}
			continue
		}
		apply(j.res)
	}
	_, dropped := side.Errors()
	for i := 0; i < dropped; i++ {
		em.Error(0, fmt.Errorf("%s: more line errors", format))
	}
	return <-errc
}

// LineCounter turns increasing byte offsets of a buffer into line numbers.
type LineCounter struct {
	buf       []byte
	pos, line int
}

// NewLineCounter counts lines of buf, whose first byte is on line first.
func NewLineCounter(buf []byte, first int) *LineCounter {
	return &LineCounter{buf: buf, line: first}
}

// At returns the line of byte offset off. Offsets must not decrease between calls (a smaller one
// returns the line of the largest offset seen).
func (c *LineCounter) At(off int) int {
	if c == nil {
		return 0
	}
	if off > len(c.buf) {
		off = len(c.buf)
	}
	if off > c.pos {
		c.line += bytes.Count(c.buf[c.pos:off], []byte{'\n'})
		c.pos = off
	}
	return c.line
}

// Records reads an input that is either JSON Lines (one value per line: the OTLP file
// exporter, SDK processors writing one object per line) or one JSON document spread over many
// lines (an OTLP/HTTP JSON body, a pretty-printed export), telling them apart by whether the
// first non-empty line is a complete value. Bad lines are reported with their number (a torn last
// line as such) and reading goes on; fn is called for every good value.
func Records(r io.Reader, em *ingest.Emitter, format string, fn func(Record)) error {
	lr := ingest.NewLineReader(r)
	for {
		line, n, final, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, ingest.ErrLineTooLong) {
			em.Errorf(n, "%s: line longer than %d bytes skipped: expected one JSON record per line", format, ingest.MaxLine)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", format, n, err)
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		if json.Valid(t) {
			fn(Record{Data: t, Line: n})
			return linesMode(lr, em, format, fn)
		}
		if (t[0] == '{' || t[0] == '[') && incomplete(t) && !final {
			return bodyMode(lr, t, n, em, format, fn)
		}
		badLine(em, format, n, final, t)
		return linesMode(lr, em, format, fn)
	}
}

func incomplete(b []byte) bool {
	var v any
	err := json.Unmarshal(b, &v)
	return errors.Is(err, io.ErrUnexpectedEOF) || err != nil && err.Error() == "unexpected end of JSON input"
}

func badLine(em *ingest.Emitter, format string, n int, final bool, t []byte) {
	var v any
	err := json.Unmarshal(t, &v)
	switch {
	case final && incomplete(t):
		em.Error(n, fmt.Errorf("%s: %w", format, ingest.ErrTornLine))
	case err != nil:
		em.Errorf(n, "%s: not JSON (%v): expected one JSON record per line", format, err)
	default:
		em.Errorf(n, "%s: invalid JSON (invalid UTF-8?): expected one JSON record per line", format)
	}
}

func linesMode(lr *ingest.LineReader, em *ingest.Emitter, format string, fn func(Record)) error {
	for {
		line, n, final, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, ingest.ErrLineTooLong) {
			em.Errorf(n, "%s: line longer than %d bytes skipped: expected one JSON record per line", format, ingest.MaxLine)
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", format, n, err)
		}
		t := bytes.TrimSpace(line)
		if len(t) == 0 {
			continue
		}
		fn(Record{Data: t, Line: n, Final: final})
	}
}

// bodyMode reads the rest of the input as one document (possibly followed by more documents).
func bodyMode(lr *ingest.LineReader, first []byte, firstLine int, em *ingest.Emitter, format string, fn func(Record)) error {
	var buf bytes.Buffer
	buf.Write(first)
	buf.WriteByte('\n')
	for {
		line, n, _, err := lr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ingest.ErrLineTooLong) {
			em.Errorf(n, "%s: line longer than %d bytes inside a JSON document: the document cannot be read", format, ingest.MaxLine)
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", format, n, err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	data := buf.Bytes()
	lc := NewLineCounter(data, firstLine)
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		start := int(dec.InputOffset())
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *json.SyntaxError
			off := start
			if errors.As(err, &se) {
				off = int(se.Offset)
			} else if errors.Is(err, io.ErrUnexpectedEOF) {
				off = len(data)
				em.Error(lc.At(off), fmt.Errorf("%s: %w: the JSON document starting at line %d is incomplete", format, ingest.ErrTornLine, lc.At(start)))
				return nil
			}
			em.Errorf(lc.At(off), "%s: malformed JSON document (%v): the rest of the input cannot be read", format, err)
			return nil
		}
		// skip leading whitespace to find the value's first line
		s := start
		for s < len(data) && (data[s] == ' ' || data[s] == '\n' || data[s] == '\r' || data[s] == '\t') {
			s++
		}
		line := lc.At(s)
		fn(Record{Data: raw, Line: line, Lines: NewLineCounter(raw, line)})
		lc.At(int(dec.InputOffset()))
	}
}
