// Package canonical reads lifeline's own canonical event log (JSON Lines, one model.Event per
// line; see docs/events.md).
package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Name is the format's name for --input-format.
const Name = "canonical"

// Detect scores how much head (the first bytes of a file) looks like a canonical log: its first
// non-empty line is an object with "v" and a canonical "type" (and "seq").
func Detect(head []byte) int {
	line := ingest.FirstLine(head)
	var probe struct {
		V    any             `json:"v"`
		Seq  any             `json:"seq"`
		Type model.EventType `json:"type"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.V == nil || !probe.Type.Valid() {
		return 0
	}
	if probe.Seq == nil {
		return 60 // a damaged first line still names the format
	}
	return 100
}

// Decode reads a canonical log. Each bad line is reported with its number and what was expected,
// and reading goes on; a torn last line (no newline, incomplete JSON) is reported as such.
// Lines are decoded in parallel (one worker per CPU) and emitted in file order; the Event
// values passed to the sink are reused afterwards (see ingest.Emitter.Sink).
func Decode(r io.Reader, em *ingest.Emitter) error {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *batch, workers)
	free := make(chan []model.Event, 10*workers) // event buffers of emitted batches, reused
	lines := make(bufs, 10*workers)              // line buffers of decoded batches, reused
	ordered := make(chan *batch, 8*workers)
	for range workers {
		go func() {
			// Per worker: strings repeated across its batches are shared; long texts of attrs are
			// kept as their JSON literal, which renderers copy as they are.
			dec := model.LineDecoder{KeepText: true}
			for b := range jobs {
				select {
				case b.events = <-free:
				default:
				}
				b.decode(&dec)
				lines.put(b.buf)
				b.buf = nil
				close(b.done)
			}
		}()
	}
	readErr := make(chan error, 1)
	go func() {
		defer close(ordered)
		defer close(jobs)
		readErr <- split(r, em.File, lines, func(b *batch) {
			jobs <- b
			ordered <- b
		})
	}()
	for b := range ordered {
		<-b.done
		for i := range b.events {
			ev := &b.events[i]
			if ev.Origin == nil {
				ev.Origin = em.At(b.lineNums[i])
			}
			em.Emit(ev)
		}
		for _, e := range b.errs {
			em.Error(e.line, e.err)
		}
		clear(b.events) // drop what the events point to; the sink keeps what it needs
		select {
		case free <- b.events[:0]:
		default:
		}
	}
	return <-readErr
}

// batchBytes is how much input one worker decodes at a time.
const batchBytes = 1 << 20

// batch is a run of consecutive lines and, once decoded, their events and errors.
type batch struct {
	buf      []byte
	ends     []int // end offset of each line in buf
	nums     []int // line number of each line
	final    bool  // the last line had no newline
	events   []model.Event
	lineNums []int
	errs     []lineErr
	done     chan struct{}
}

type lineErr struct {
	line int
	err  error
}

// bufs holds the line buffers of decoded batches for reuse: decoded events copy what they
// keep, so a batch's buffer is free as soon as it is decoded.
type bufs chan []byte

func (f bufs) get() []byte {
	select {
	case b := <-f:
		return b[:0]
	default:
		return make([]byte, 0, batchBytes+batchBytes/8)
	}
}

func (f bufs) put(b []byte) {
	select {
	case f <- b:
	default:
	}
}

func newBatch(free bufs) *batch {
	return &batch{done: make(chan struct{}), buf: free.get()}
}

// split reads lines and hands them out in batches; over-long lines become errors of the batch.
func split(r io.Reader, file string, free bufs, send func(*batch)) error {
	lr := ingest.NewLineReader(r)
	lr.Max = ingest.MaxLine // one event per line: no one-document first line
	b := newBatch(free)
	for {
		line, n, final, err := lr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ingest.ErrLineTooLong) {
			b.errs = append(b.errs, lineErr{n, fmt.Errorf("line longer than %d bytes skipped: expected one event object per line", ingest.MaxLine)})
			continue
		}
		if err != nil {
			send(b)
			return fmt.Errorf("canonical: %s: %w", file, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		b.buf = append(b.buf, line...)
		b.ends = append(b.ends, len(b.buf))
		b.nums = append(b.nums, n)
		b.final = final
		if len(b.buf) >= batchBytes {
			send(b)
			b = newBatch(free)
		}
	}
	send(b)
	return nil
}

func (b *batch) decode(dec *model.LineDecoder) {
	if cap(b.events) < len(b.ends) {
		b.events = make([]model.Event, 0, len(b.ends))
	}
	start := 0
	var errs []lineErr
	for i, end := range b.ends {
		line := b.buf[start:end]
		start = end
		b.events = append(b.events, model.Event{})
		if err := dec.DecodeInto(line, &b.events[len(b.events)-1]); err != nil {
			b.events[len(b.events)-1] = model.Event{}
			b.events = b.events[:len(b.events)-1]
			if b.final && i == len(b.ends)-1 && !json.Valid(line) {
				err = fmt.Errorf("%w: %v", ingest.ErrTornLine, err)
			}
			errs = append(errs, lineErr{b.nums[i], err})
			continue
		}
		b.lineNums = append(b.lineNums, b.nums[i])
	}
	// Over-long lines were found while splitting; keep all errors in line order.
	b.errs = append(b.errs, errs...)
	sort.SliceStable(b.errs, func(i, j int) bool { return b.errs[i].line < b.errs[j].line })
}

// DecodeLine decodes one line of a canonical log (without its newline) at 1-based line number n
// and emits its event, or reports why it cannot be read: what Decode does for each line of its
// input, for a log read as it grows (lifeline serve's events.jsonl). dec keeps the strings
// repeated across lines; use one per input.
func DecodeLine(dec *model.LineDecoder, line []byte, n int, em *ingest.Emitter) {
	if len(bytes.TrimSpace(line)) == 0 {
		return
	}
	if len(line) > ingest.MaxLine {
		em.Error(n, fmt.Errorf("line longer than %d bytes skipped: expected one event object per line", ingest.MaxLine))
		return
	}
	var ev model.Event
	if err := dec.DecodeInto(line, &ev); err != nil {
		em.Error(n, err)
		return
	}
	if ev.Origin == nil {
		ev.Origin = em.At(n)
	}
	em.Emit(&ev)
}
