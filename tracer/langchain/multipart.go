package langchain

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// MultipartName is the --input-format name of LangSmith multipart ingest bodies.
const MultipartName = "langsmith-multipart"

// MultipartDescription says which producer writes multipart bodies.
const MultipartDescription = "LangSmith client multipart ingest bodies (POST /runs/multipart: post.<id>, patch.<id>, .inputs/.outputs parts)"

// MultipartExpect is the shape the format expects, for the error of an input with no record.
const MultipartExpect = `multipart/form-data bodies, --<boundary> then Content-Disposition: form-data; name="post.<run id>" parts`

var (
	reDisposition = regexp.MustCompile(`(?i)^content-disposition:\s*form-data;\s*name="([^"]*)"`)
	reHeader      = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9-]*:\s`)
)

// DetectMultipart scores how much head looks like a LangSmith multipart body: a boundary line
// then a form-data part named post.<id>, patch.<id> (or the client's attachment./feedback.).
func DetectMultipart(head []byte) int {
	if isGzip(head) {
		// gzip bodies (the JS client's Content-Encoding: gzip, kept as sent): look at what the
		// head's bytes decompress to
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return 0
		}
		buf := make([]byte, 4096)
		n, _ := io.ReadFull(zr, buf)
		if n == 0 {
			return 0
		}
		head = buf[:n]
	}
	line := ingest.FirstLine(head)
	if !bytes.HasPrefix(line, []byte("--")) || len(line) < 3 {
		return 0
	}
	rest := head[bytes.Index(head, line)+len(line):]
	for _, l := range bytes.SplitN(rest, []byte("\n"), 4) {
		m := reDisposition.FindSubmatch(bytes.TrimSpace(l))
		if m == nil {
			continue
		}
		if op, _, _ := strings.Cut(string(m[1]), "."); op == "post" || op == "patch" || op == "attachment" || op == "feedback" {
			return 95
		}
	}
	return 0
}

// mpRun collects the parts of one run of one body: the main part (the run without its large
// fields) and the field parts (inputs, outputs, events, extra, error, serialized) the client
// sends separately.
type mpRun struct {
	op, id string
	line   int
	main   json.RawMessage
	fields map[string]json.RawMessage
}

// DecodeMultipart reads the bodies the LangSmith client POSTs to /runs/multipart, one after the
// other as captured: each part's name is <op>.<run id>[.<field>] with op post (create) or patch
// (update); the parts of a run are joined into one run record and merged by id like the JSON
// payloads. attachment.* and feedback.* parts are skipped. Problems are reported with file:line.
func DecodeMultipart(r io.Reader, em *ingest.Emitter) error {
	br := bufio.NewReader(r)
	if magic, _ := br.Peek(2); isGzip(magic) {
		// one or more gzip members (a body each, as the client sent them): read decompressed;
		// line numbers are then those of the decompressed text
		zr, err := gzip.NewReader(br)
		if err != nil {
			return fmt.Errorf("%s: %s: gzip: %w", MultipartName, em.File, err)
		}
		r = &gzipTail{zr: zr, em: em}
	} else {
		r = br
	}
	s := newStore()
	order := 0
	var (
		boundary string
		runs     []*mpRun
		byKey    = map[string]*mpRun{}
		name     string // the current part's name; "" between parts
		inPart   bool   // past the current part's headers
		content  []byte
		partLine int
	)
	endPart := func() {
		if name == "" {
			return
		}
		defer func() { name, inPart, content = "", false, content[:0] }()
		op, rest, _ := strings.Cut(name, ".")
		if op != "post" && op != "patch" {
			return
		}
		id, field, _ := strings.Cut(rest, ".")
		if id == "" {
			s.errorf(partLine, "part %q: expected <op>.<run id>[.<field>]", name)
			return
		}
		body := bytes.TrimSpace(content)
		if len(body) == 0 {
			return
		}
		if !json.Valid(body) {
			s.errorf(partLine, "part %q: content is not JSON", name)
			return
		}
		k := op + "." + id
		run := byKey[k]
		if run == nil {
			run = &mpRun{op: op, id: id, line: partLine, fields: map[string]json.RawMessage{}}
			byKey[k] = run
			runs = append(runs, run)
		}
		if field == "" {
			run.main, run.line = append(json.RawMessage(nil), body...), partLine
		} else {
			run.fields[field] = append(json.RawMessage(nil), body...)
		}
	}
	endBody := func() {
		endPart()
		for _, run := range runs {
			rr, err := run.record()
			if err != nil {
				s.errorf(run.line, "run %s: %v", run.id, err)
				continue
			}
			s.merge(rr, run.line, run.op == "post", &order, "")
		}
		runs, byKey = nil, map[string]*mpRun{}
	}
	err := ingest.EachLine(r, em, MultipartName, func(line []byte, n int) error {
		t := bytes.TrimRight(line, " \t")
		switch {
		case boundary != "" && isBoundary(t, boundary):
			endPart()
			if bytes.HasSuffix(t, []byte("--")) && string(t) == "--"+boundary+"--" {
				endBody()
				boundary = "" // the next body, if any, opens with its own boundary
			}
			return nil
		case boundary == "":
			if !bytes.HasPrefix(t, []byte("--")) || len(t) < 3 {
				return fmt.Errorf("expected a multipart boundary line (--<boundary>)")
			}
			boundary = string(t[2:])
			return nil
		}
		if !inPart {
			if m := reDisposition.FindSubmatch(t); m != nil {
				name, partLine = string(m[1]), n
				return nil
			}
			if reHeader.Match(t) {
				return nil // Content-Type, Content-Length
			}
			if name == "" {
				return fmt.Errorf("part without a Content-Disposition name")
			}
			inPart = true
		}
		content = append(append(content, line...), '\n')
		return nil
	})
	endBody()
	roots := s.link()
	for _, le := range s.errs {
		em.Error(le.line, fmt.Errorf("%s: line %d: %w", MultipartName, le.line, le.err))
	}
	b := &builder{em: em, st: em.Shared(), format: MultipartName}
	b.emitRoots(roots)
	return err
}

// isGzip says whether b starts with the gzip magic bytes.
func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// gzipTail reads a gzip stream and reports a torn or corrupt end as a decode error (the text
// read so far is still decoded) instead of failing the input.
type gzipTail struct {
	zr   *gzip.Reader
	em   *ingest.Emitter
	done bool
}

func (g *gzipTail) Read(p []byte) (int, error) {
	if g.done {
		return 0, io.EOF
	}
	n, err := g.zr.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		g.done = true
		g.em.Error(1, fmt.Errorf("%s: gzip body: %v (the text decompressed before it is read)", MultipartName, err))
		return n, io.EOF
	}
	return n, err
}

// isBoundary says whether line is the boundary b's delimiter or closing line.
func isBoundary(line []byte, b string) bool {
	s := string(line)
	return s == "--"+b || s == "--"+b+"--"
}

// record joins a run's parts into one run record: the main part's fields plus each field part
// under its name (inputs, outputs, events, extra, error, serialized).
func (m *mpRun) record() (*rawRun, error) {
	obj := map[string]json.RawMessage{}
	if m.main != nil {
		if err := json.Unmarshal(m.main, &obj); err != nil {
			return nil, fmt.Errorf("part %s.%s: expected a JSON object: %w", m.op, m.id, err)
		}
	}
	for k, v := range m.fields {
		obj[k] = v
	}
	if _, ok := obj["id"]; !ok {
		obj["id"], _ = json.Marshal(m.id)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var rr rawRun
	if err := json.Unmarshal(b, &rr); err != nil {
		return nil, describe(err)
	}
	return &rr, nil
}
