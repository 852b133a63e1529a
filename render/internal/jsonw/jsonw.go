// Package jsonw holds the JSON string writer shared by the hand-written JSON encoders of
// render/json and render/otlp, and the rule for numbers that overflowed (Finite).
package jsonw

import (
	"math"
	"unicode/utf8"
)

// Escapes says how AppendString writes the characters a JSON string may carry as they are.
// Characters JSON requires to be escaped (", \ and control characters) are always escaped.
type Escapes struct {
	// ascii holds, per ASCII byte, 0 to keep it as is, 'u' to write it as \u00XX, or the letter
	// c to write it as \c.
	ascii [utf8.RuneSelf]byte
	// lineSep writes U+2028 and U+2029 as \u2028 and \u2029.
	lineSep bool
}

// HTMLSafe writes strings the way encoding/json does: <, > and & and U+2028/U+2029 escaped as
// \u…, \n, \r and \t as short escapes, other control characters as \u00XX, DEL as is.
var HTMLSafe = newEscapes("<>&", "\"\\\n\r\t", true)

// Minimal escapes only what JSON requires, and DEL: \n and \t as short escapes, other control
// characters (\r included) and DEL as \u00XX; <, >, & and U+2028/U+2029 as they are.
var Minimal = newEscapes("\x7f", "\"\\\n\t", false)

// newEscapes escapes the control characters and the bytes of extra as \u00XX, and the bytes of
// short as a backslash and a letter.
func newEscapes(extra, short string, lineSep bool) *Escapes {
	e := &Escapes{lineSep: lineSep}
	for c := range 0x20 {
		e.ascii[c] = 'u'
	}
	for _, c := range []byte(extra) {
		e.ascii[c] = 'u'
	}
	letters := map[byte]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't'}
	for _, c := range []byte(short) {
		e.ascii[c] = letters[c]
	}
	return e
}

const hex = "0123456789abcdef"

// AppendString appends s to b as a quoted JSON string escaped as esc says; invalid UTF-8 is
// replaced by \ufffd.
func AppendString(b []byte, s string, esc *Escapes) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			x := esc.ascii[c]
			if x == 0 {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			if x == 'u' {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, '\\', x)
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		if esc.lineSep && (r == '\u2028' || r == '\u2029') {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// Finite is the rule every JSON output of render/ applies to a number that may have overflowed
// (a cost summed past the largest float64): ±Inf becomes ±math.MaxFloat64, the largest finite
// value, so the document stays valid JSON and the number still reads as huge; NaN has no
// meaningful value and is reported as not ok, and the field is left out.
func Finite(f float64) (float64, bool) {
	switch {
	case math.IsNaN(f):
		return 0, false
	case math.IsInf(f, 1):
		return math.MaxFloat64, true
	case math.IsInf(f, -1):
		return -math.MaxFloat64, true
	}
	return f, true
}
