// Package termsafe makes untrusted text safe to print on a terminal: error messages and
// diagnostics that embed file names, ids or record contents. Unlike the renderers, which drop
// escape sequences from trace text, it shows them: a control character becomes a visible Go
// escape (\x1b, \r, \u009b, \u202e), so a hostile file name is still recognisable in the
// message that names it. Newlines and tabs are kept; they shape multi-line messages.
package termsafe

import (
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// String returns s with every character a terminal would act on, or that hides or reorders
// text, escaped: C0 and C1 controls but newline and tab, DEL, bidirectional controls and other
// invisible format characters, and bytes that are not UTF-8.
func String(s string) string {
	if safe(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029':
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// safe reports whether s is printable ASCII, newlines and tabs only.
func safe(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return true
}

// Writer escapes, with String, everything written to it before passing it on. Each Write is
// escaped on its own: write whole messages (fmt.Fprintf does), not a stream cut anywhere.
type Writer struct{ w io.Writer }

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write escapes p and writes it; it reports len(p) written when the escaped text was.
func (w *Writer) Write(p []byte) (int, error) {
	s := string(p)
	if e := String(s); e != s {
		if _, err := io.WriteString(w.w, e); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.w.Write(p)
}
