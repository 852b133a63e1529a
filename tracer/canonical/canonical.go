// Package canonical reads lifeline's own canonical event log (JSON Lines, one model.Event per
// line; see docs/events.md).
package canonical

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
)

// Name is the format's name for --input-format.
const Name = "canonical"

// Detect scores how much head (the first bytes of a file) looks like a canonical log: its first
// non-empty line is an object with "v" and a canonical "type" (and "seq").
func Detect(head []byte) int {
	line := firstLine(head)
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

func firstLine(head []byte) []byte {
	for len(head) > 0 {
		i := bytes.IndexByte(head, '\n')
		var line []byte
		if i < 0 {
			line, head = head, nil
		} else {
			line, head = head[:i], head[i+1:]
		}
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line
		}
	}
	return nil
}

// Decode reads a canonical log. Each bad line is reported with its number and what was expected,
// and reading goes on; a torn last line (no newline, incomplete JSON) is reported as such.
func Decode(r io.Reader, em *ingest.Emitter) error {
	lr := ingest.NewLineReader(r)
	for {
		line, n, final, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, ingest.ErrLineTooLong) {
			em.Errorf(n, "line longer than %d bytes skipped: expected one event object per line", ingest.MaxLine)
			continue
		}
		if err != nil {
			return fmt.Errorf("canonical: %s: %w", em.File, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		ev, err := model.DecodeLine(line)
		if err != nil {
			if final && !json.Valid(line) {
				em.Error(n, fmt.Errorf("%w: %v", ingest.ErrTornLine, err))
			} else {
				em.Error(n, err)
			}
			continue
		}
		if ev.Origin == nil {
			ev.Origin = em.At(n)
		}
		em.Emit(&ev)
	}
}
