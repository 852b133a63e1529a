package model

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// MaxLineBytes is the longest canonical log line accepted (16 MiB).
const MaxLineBytes = 16 << 20

// DecodeLine parses one line of the canonical event log and validates it. The error says what
// was expected; callers add file:line.
func DecodeLine(line []byte) (Event, error) {
	var ev Event
	err := decodeLine(line, &ev, nil, false)
	return ev, err
}

// LineDecoder decodes many lines, sharing one copy of the short strings they repeat (ids,
// names, statuses), which keeps a tree of a long log small. Not safe for concurrent use.
type LineDecoder struct {
	// KeepText keeps long string values of attrs as JSONText (the literal of the line) where
	// writing the literal back is the same as encoding the string.
	KeepText bool
	intern   *Interner
}

// Decode is DecodeLine with string sharing.
func (d *LineDecoder) Decode(line []byte) (Event, error) {
	var ev Event
	err := d.DecodeInto(line, &ev)
	return ev, err
}

// DecodeInto is Decode into *ev, which must be the zero Event; on error *ev holds what was read.
func (d *LineDecoder) DecodeInto(line []byte, ev *Event) error {
	if d.intern == nil {
		d.intern = NewInterner()
	}
	return decodeLine(line, ev, d.intern, d.KeepText)
}

func decodeLine(line []byte, ev *Event, intern *Interner, keepText bool) error {
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return errors.New("empty line: expected one JSON event object")
	}
	if len(line) > MaxLineBytes {
		return fmt.Errorf("line of %d bytes exceeds the %d-byte limit", len(line), MaxLineBytes)
	}
	if !utf8.Valid(line) {
		return errors.New("invalid UTF-8: expected UTF-8 JSON")
	}
	if line[0] != '{' {
		return fmt.Errorf("not a JSON object (starts with %q): expected one event object per line", truncate(line, 20))
	}
	if decodeFast(line, ev, intern, keepText) == nil {
		return ev.validate() // the line is valid UTF-8 and unescaping kept it so
	}
	*ev = Event{}
	if err := jsonv2.Unmarshal(line, ev, jsonv2.RejectUnknownMembers(false)); err != nil {
		var se *jsonv2.SemanticError
		if errors.As(err, &se) {
			field := strings.TrimPrefix(string(se.JSONPointer), "/")
			want := "a different type"
			if se.GoType != nil {
				want = se.GoType.String()
			}
			if field == "ts" {
				want = "an RFC 3339 timestamp"
			}
			return fmt.Errorf("field %q: expected %s, got JSON %s", field, want, se.JSONKind)
		}
		var syn *jsontext.SyntacticError
		if errors.As(err, &syn) {
			hint := ""
			if errors.Is(syn.Err, io.ErrUnexpectedEOF) {
				hint = " (truncated line?)"
			}
			return fmt.Errorf("malformed JSON at byte %d: %v%s", syn.ByteOffset, syn.Err, hint)
		}
		return fmt.Errorf("malformed event: %w", err)
	}
	return ev.Validate()
}

func truncate(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}
