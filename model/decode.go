package model

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode/utf8"
)

// MaxLineBytes is the longest canonical log line accepted (16 MiB).
const MaxLineBytes = 16 << 20

// DecodeLine parses one line of the canonical event log and validates it. The error says what
// was expected; callers add file:line.
func DecodeLine(line []byte) (Event, error) {
	var ev Event
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return ev, errors.New("empty line: expected one JSON event object")
	}
	if len(line) > MaxLineBytes {
		return ev, fmt.Errorf("line of %d bytes exceeds the %d-byte limit", len(line), MaxLineBytes)
	}
	if !utf8.Valid(line) {
		return ev, errors.New("invalid UTF-8: expected UTF-8 JSON")
	}
	if line[0] != '{' {
		return ev, fmt.Errorf("not a JSON object (starts with %q): expected one event object per line", truncate(line, 20))
	}
	if err := json.Unmarshal(line, &ev); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return ev, fmt.Errorf("field %q: expected %s, got JSON %s", te.Field, te.Type, te.Value)
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return ev, fmt.Errorf("malformed JSON at byte %d: %v (truncated line?)", se.Offset, err)
		}
		return ev, fmt.Errorf("malformed event: %w", err)
	}
	if err := ev.Validate(); err != nil {
		return ev, err
	}
	return ev, nil
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}
