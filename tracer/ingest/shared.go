package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Shared is what the decoders of several files read through one Emitter share: the sessions
// already started, the ids already used and per-session counters and values, so that one session
// spread over several files gets one session/start and unique ids.
type Shared struct {
	started map[string]bool
	used    map[string]bool
	runs    map[string]int
	values  map[string]string
	next    map[string]int // kind\x00id → the next #n suffix Unique tries
}

// Shared returns the emitter's shared decoder state.
func (e *Emitter) Shared() *Shared {
	if e.shared == nil {
		e.shared = &Shared{started: map[string]bool{}, used: map[string]bool{}, runs: map[string]int{}, values: map[string]string{}, next: map[string]int{}}
	}
	return e.shared
}

// Unique returns id, or id with a "#n" suffix when id was already used for this kind. The next
// suffix to try is kept per id, so n uses of one id take O(n) in all, not O(n²).
func (s *Shared) Unique(kind, id string) string {
	key := kind + "\x00" + id
	if !s.used[key] {
		s.used[key] = true
		return id
	}
	for i := max(s.next[key], 2); ; i++ {
		alt := fmt.Sprintf("%s#%d", id, i)
		if k := kind + "\x00" + alt; !s.used[k] {
			s.used[k] = true
			s.next[key] = i + 1
			return alt
		}
	}
}

// StartSession reports whether session still needs its session/start, and records that it got one.
func (s *Shared) StartSession(session string) bool {
	if s.started[session] {
		return false
	}
	s.started[session] = true
	return true
}

// NextRun returns the next 1-based run number of a session.
func (s *Shared) NextRun(session string) int {
	s.runs[session]++
	return s.runs[session]
}

// Value returns a value a decoder stored under key ("" when none).
func (s *Shared) Value(key string) string { return s.values[key] }

// SetValue stores a value under key for the decoders of later files.
func (s *Shared) SetValue(key, value string) { s.values[key] = value }

// EachLine calls fn for every non-blank line of r with its 1-based number. It reports over-long
// lines, invalid UTF-8 (the line is still decoded, bad bytes replaced by U+FFFD) and a torn last
// line (a JSON syntax error from fn on a final line without newline) at file:line, prefixed with
// the format's name, and goes on.
func EachLine(r io.Reader, em *Emitter, format string, fn func(line []byte, n int) error) error {
	lr := NewLineReader(r)
	for {
		line, n, final, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if errors.Is(err, ErrLineTooLong) {
			limit := MaxLine
			if n == 1 {
				limit = MaxDocument
			}
			em.Error(n, fmt.Errorf("%s: line %d: longer than %d bytes, skipped: %w", format, n, limit, err))
			continue
		}
		if err != nil {
			return fmt.Errorf("%s: %s: %w", format, em.File, err)
		}
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if !utf8.Valid(line) {
			em.Error(n, fmt.Errorf("%s: line %d: invalid UTF-8 (bad bytes replaced by U+FFFD)", format, n))
			line = bytes.ToValidUTF8(line, []byte("\uFFFD"))
		}
		if err := fn(line, n); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) && strings.Contains(se.Error(), "exceeded max depth") {
				err = fmt.Errorf("%w (%d levels): %v", ErrTooDeep, MaxJSONDepth, err)
			} else if final && errors.As(err, &se) {
				err = fmt.Errorf("%w: %v", ErrTornLine, err)
			}
			em.Error(n, fmt.Errorf("%s: line %d: %w", format, n, err))
		}
	}
}

// MaxJSONDepth is how deeply encoding/json lets values nest; a deeper record is not read.
const MaxJSONDepth = 10000

// ErrTooDeep reports a record whose JSON nests deeper than MaxJSONDepth.
var ErrTooDeep = errors.New("JSON nested deeper than the limit")

// FirstLine returns the first non-blank line of head, trimmed: what format detection looks at.
func FirstLine(head []byte) []byte {
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
