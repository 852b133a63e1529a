// Package tracer turns log files into canonical lifecycle events: it detects each file's format
// from its first records (or takes the one forced with --input-format), runs that format's
// decoder (one sub-package per format) and streams the events, keeping bad records as errors
// with file:line while reading the rest.
package tracer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Format is one log format lifeline reads.
type Format struct {
	// Name is what --input-format takes.
	Name string
	// Description says in one line which producer writes it.
	Description string
	// Detect scores how much the first bytes of a file look like this format (0: not at all).
	Detect func(head []byte) int
	// Decode reads a whole input and emits canonical events; per-record problems go to
	// em.Error and reading goes on. An error return means the input could not be read at all.
	Decode func(r io.Reader, em *ingest.Emitter) error
	// Expect says what a record of the format looks like, for the error on an input of which no
	// record could be read.
	Expect string
}

// HeadSize is how many bytes Detect sees at least: the first HeadSize bytes, and more when the
// first line is longer, up to MaxHeadSize, so that a first record longer than HeadSize is still
// whole.
const HeadSize = 64 << 10

// MaxHeadSize bounds the head Detect sees when the first line is long.
const MaxHeadSize = 16 << 20

// bom is the UTF-8 byte order mark some editors put at the start of a file; it is skipped.
var bom = []byte("\xef\xbb\xbf")

// Lookup returns the format with the given name.
func Lookup(name string) (*Format, bool) {
	for i := range Formats {
		if Formats[i].Name == name {
			return &Formats[i], true
		}
	}
	return nil, false
}

// Names lists the format names.
func Names() []string {
	out := make([]string, len(Formats))
	for i, f := range Formats {
		out[i] = f.Name
	}
	return out
}

// Detect picks the format that scores highest on head, or reports that none matched.
func Detect(head []byte) (*Format, error) {
	best, score := -1, 0
	for i, f := range Formats {
		if s := f.Detect(head); s > score {
			best, score = i, s
		}
	}
	if best < 0 {
		return nil, fmt.Errorf("unknown format: the first record (%s) matches none of %s; force one with --input-format", preview(head), strings.Join(Names(), ", "))
	}
	return &Formats[best], nil
}

func preview(head []byte) string {
	s := strings.TrimSpace(string(head))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	if s == "" {
		return "empty input"
	}
	return fmt.Sprintf("%q", s)
}

// Options control Read.
type Options struct {
	// Format forces a format by name; empty means detect per file.
	Format string
	// Stdin is read for the file name "-" (os.Stdin when nil).
	Stdin io.Reader
	// Pipeline runs the sink on a goroutine of its own, in event order, while decoding goes on;
	// Read returns once the sink has had every event. For sinks with much work per event.
	Pipeline bool
	// Payload cuts or drops the payloads (model input and output, tool arguments and results)
	// and message texts of every event before the sink sees them.
	Payload model.PayloadPolicy
}

// FileReport says how one input was read.
type FileReport struct {
	File   string
	Format string
	Events int
}

// Report says how a Read went.
type Report struct {
	Files []FileReport
	// Errors are the bad records, each with file:line; Dropped counts errors beyond the kept ones.
	Errors  []*ingest.DecodeError
	Dropped int
}

// Read decodes the files in order and passes every event to sink. One emitter spans all files,
// so a session spread over several files keeps one seq order. Unreadable or unrecognised files,
// and files of which no record could be decoded, are reported and the other files are still
// read; the returned error is non-nil if any file could not be read at all.
func Read(files []string, opts Options, sink func(*model.Event)) (*Report, error) {
	rep := &Report{}
	if pipelined(opts) {
		p := newPipeline(sink)
		defer p.close()
		sink = p.put
	}
	if pol := opts.Payload; !pol.IsZero() {
		next := sink
		sink = func(ev *model.Event) {
			pol.Apply(ev)
			next(ev)
		}
	}
	em := ingest.NewEmitter(sink)
	var failed []string
	for _, name := range files {
		n, format, err := readOne(name, opts, em)
		if err != nil {
			failed = append(failed, err.Error())
			continue
		}
		rep.Files = append(rep.Files, FileReport{File: name, Format: format, Events: n})
	}
	rep.Errors, rep.Dropped = em.Errors()
	if len(failed) > 0 {
		return rep, fmt.Errorf("%s", strings.Join(failed, "; "))
	}
	return rep, nil
}

func readOne(name string, opts Options, em *ingest.Emitter) (int, string, error) {
	var r io.Reader
	display := name
	if name == "-" {
		display = "<stdin>"
		r = opts.Stdin
		if r == nil {
			r = os.Stdin
		}
	} else {
		f, err := os.Open(name)
		if err != nil {
			return 0, "", err
		}
		defer f.Close()
		r = f
	}
	br := bufio.NewReaderSize(r, HeadSize)
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		_, _ = br.Discard(len(bom))
	}
	var src io.Reader = br
	var format *Format
	if opts.Format != "" {
		f, ok := Lookup(opts.Format)
		if !ok {
			return 0, "", fmt.Errorf("unknown --input-format %q (one of %s)", opts.Format, strings.Join(Names(), ", "))
		}
		format = f
	} else {
		head, err := readHead(br)
		if err != nil {
			return 0, "", fmt.Errorf("%s: %w", display, err)
		}
		if len(bytes.TrimSpace(head)) == 0 {
			return 0, "", fmt.Errorf("%s: empty input: no records to read", display)
		}
		f, err := Detect(head)
		if err != nil {
			return 0, "", fmt.Errorf("%s: %w", display, err)
		}
		format = f
		src = io.MultiReader(bytes.NewReader(head), br)
	}
	if name != "-" {
		if st, err := os.Stat(name); err == nil && st.Mode().IsRegular() {
			src = reopenable{src, name}
		}
	}
	em.File = display
	before := em.Events()
	errsBefore, droppedBefore := em.Errors()
	nerrs := len(errsBefore) + droppedBefore
	if err := format.Decode(src, em); err != nil {
		return em.Events() - before, format.Name, fmt.Errorf("%s: %s: %w", display, format.Name, err)
	}
	n := em.Events() - before
	if n == 0 {
		errs, dropped := em.Errors()
		if bad := len(errs) + dropped - nerrs; bad > 0 {
			return 0, format.Name, fmt.Errorf("%s: no readable %s record (%d bad, see above): expected %s", display, format.Name, bad, format.Expect)
		}
		return 0, format.Name, fmt.Errorf("%s: no %s record: expected %s", display, format.Name, format.Expect)
	}
	return n, format.Name, nil
}

// reopenable is a regular file's reader that can read the file again from its start
// (ingest.Reopener), for decoders that read an input ahead.
type reopenable struct {
	io.Reader
	name string
}

func (r reopenable) Reopen() (io.ReadCloser, error) { return os.Open(r.name) }

// readHead reads the first HeadSize bytes of br, and on until the first non-blank line is whole
// (up to MaxHeadSize), for Detect; the bytes are consumed from br.
func readHead(br *bufio.Reader) ([]byte, error) {
	head := make([]byte, 0, HeadSize)
	for {
		chunk := make([]byte, max(HeadSize, len(head)))
		if len(head)+len(chunk) > MaxHeadSize {
			chunk = chunk[:MaxHeadSize-len(head)]
		}
		n, err := io.ReadFull(br, chunk)
		head = append(head, chunk[:n]...)
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return head, nil
		}
		if err != nil {
			return nil, err
		}
		if t := bytes.TrimLeft(head, " \t\r\n"); bytes.IndexByte(t, '\n') >= 0 || len(head) >= MaxHeadSize {
			return head, nil
		}
	}
}
