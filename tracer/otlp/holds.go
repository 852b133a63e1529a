package otlp

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"io"
	"strings"

	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// scanHolds reads an input ahead of its decoding for the trace id of each span (the
// "traceId" or "trace_id" members, as the parser normalises them) and the line it is on, and
// returns the traces whose spans come far apart (see spantree.HoldScan): a child span exported
// in a later batch than its parent, a tool span written after its run ended. Decoding holds
// those traces back until their last line, so that their late spans are placed under their real
// parents, as a read with the spans together would place them. A line that cannot be read ends
// the scan early (the decoding read reports it); ids written with JSON escapes are not seen.
func scanHolds(r io.Reader) *spantree.Holds {
	s := spantree.NewHoldScan()
	lr := ingest.NewLineReader(r)
	for {
		line, n, _, err := lr.Next()
		if errors.Is(err, ingest.ErrLineTooLong) {
			continue
		}
		if err != nil {
			return s.Holds()
		}
		for rest := line; ; {
			i := bytes.Index(rest, []byte(`"trace`))
			if i < 0 {
				break
			}
			rest = rest[i+len(`"trace`):]
			switch {
			case bytes.HasPrefix(rest, []byte(`Id"`)):
				rest = rest[len(`Id"`):]
			case bytes.HasPrefix(rest, []byte(`_id"`)):
				rest = rest[len(`_id"`):]
			default:
				continue
			}
			rest = bytes.TrimLeft(rest, " \t\r")
			if len(rest) == 0 || rest[0] != ':' {
				continue
			}
			rest = bytes.TrimLeft(rest[1:], " \t\r")
			if len(rest) == 0 || rest[0] != '"' {
				continue
			}
			rest = rest[1:]
			end := bytes.IndexByte(rest, '"')
			if end < 0 {
				break
			}
			v := rest[:end]
			rest = rest[end+1:]
			if len(v) == 0 || bytes.IndexByte(v, '\\') >= 0 {
				continue
			}
			s.Seen(normalID(v), n)
		}
	}
}

// normalID is an id as parser.id normalises it: lower-case hex, base64 of 8 or 16 bytes turned
// to hex, anything else as it is.
func normalID(v []byte) string {
	if isHex(string(v)) {
		return strings.ToLower(string(v))
	}
	if b, err := base64.StdEncoding.DecodeString(string(v)); err == nil && (len(b) == 8 || len(b) == 16) {
		return hex.EncodeToString(b)
	}
	return string(v)
}

// holdsOf reads r ahead for the traces to hold back when r can be read again (a file, not a
// pipe: an ingest.Reopener, or an io.Seeker put back where it was), nil otherwise.
func holdsOf(r io.Reader) *spantree.Holds {
	ro, ok := r.(ingest.Reopener)
	if !ok {
		rs, ok := r.(io.ReadSeeker)
		if !ok {
			return nil
		}
		at, err := rs.Seek(0, io.SeekCurrent)
		if err != nil {
			return nil // a pipe given as an *os.File
		}
		h := scanHolds(rs)
		if _, err := rs.Seek(at, io.SeekStart); err != nil {
			return nil // the decoding read reports it
		}
		return h
	}
	rc, err := ro.Reopen()
	if err != nil {
		return nil // the decoding read reports what is wrong with the input
	}
	defer rc.Close()
	return scanHolds(rc)
}
