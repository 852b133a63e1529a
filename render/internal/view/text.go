package view

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Clean makes untrusted trace text safe for a terminal or a one-line label: it removes ANSI/VT
// escape sequences (CSI, OSC, DCS, ...) and every other control character, bidirectional
// overrides and invalid UTF-8, and turns newlines and tabs into spaces. The result is one line.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b { // ESC: skip the whole sequence
			i = skipEscape(s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
		case r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f':
			b.WriteByte(' ')
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i)
		case r == 0x9d || r == 0x90 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, PM, APC
			i = skipString(s, i)
		case unicode.IsControl(r), isBidi(r):
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// skipEscape returns the index after the escape sequence starting at s[i] == ESC.
func skipEscape(s string, i int) int {
	i++
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', '^', '_', 'X':
		return skipString(s, i+1)
	}
	// Two- or three-byte escapes: intermediates 0x20–0x2f then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte of a CSI sequence.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x40 && c <= 0x7e:
			return i + 1
		case c < 0x20 || c > 0x7e: // not part of a CSI: the sequence was cut short
			return i
		}
		i++
	}
	return i
}

// skipString skips an OSC/DCS/PM/APC string up to BEL or ST (ESC \ or 0x9c).
func skipString(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
		i++
	}
	return i
}

// ShortID shortens an id for people: a UUID keeps its first 8 hex digits, another id longer
// than max keeps its head and tail around "…". Ids are cleaned first.
func ShortID(id string, max int) string {
	id = Clean(id)
	if isUUID(id) {
		return id[:8]
	}
	if max < 5 || utf8.RuneCountInString(id) <= max {
		return id
	}
	r := []rune(id)
	head := (max - 1) * 2 / 3
	tail := max - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// Truncate cuts s to at most n display cells (runes; wide characters count as two), ending
// with "…" when it was cut.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if Width(s) <= n {
		return s
	}
	var b strings.Builder
	w := 0
	for _, r := range s {
		rw := RuneWidth(r)
		if w+rw > n-1 {
			break
		}
		b.WriteRune(r)
		w += rw
	}
	b.WriteString("…")
	return b.String()
}

// Width is the number of terminal cells s takes (East Asian wide runes count two).
func Width(s string) int {
	if isPlain(s) {
		return len(s)
	}
	w := 0
	for _, r := range s {
		w += RuneWidth(r)
	}
	return w
}

// RuneWidth is 2 for East Asian wide and fullwidth runes and emoji, 0 for combining marks, else 1.
func RuneWidth(r rune) int {
	switch {
	case r < 0x300:
		return 1
	case unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Me, r) || r == 0x200b || r == 0x200d:
		return 0
	case r >= 0x1100 && (r <= 0x115f || r == 0x2329 || r == 0x232a ||
		(r >= 0x2e80 && r <= 0xa4cf && r != 0x303f) || (r >= 0xac00 && r <= 0xd7a3) ||
		(r >= 0xf900 && r <= 0xfaff) || (r >= 0xfe30 && r <= 0xfe4f) || (r >= 0xff00 && r <= 0xff60) ||
		(r >= 0xffe0 && r <= 0xffe6) || (r >= 0x1f300 && r <= 0x1f64f) || (r >= 0x1f900 && r <= 0x1f9ff) ||
		(r >= 0x20000 && r <= 0x3fffd)):
		return 2
	}
	return 1
}

// Dur formats a duration compactly for people: 850µs, 12ms, 1.234s, 2m03s, 1h02m, from a
// year on 3y012d, from a century on 292y.
func Dur(d time.Duration) string {
	neg := ""
	if d < 0 {
		if d == math.MinInt64 {
			return "-" + DurNS(-float64(d))
		}
		neg, d = "-", -d
	}
	switch {
	case d == 0:
		return "0s"
	case d < time.Microsecond:
		return neg + strconv.FormatInt(int64(d), 10) + "ns"
	case d < time.Millisecond:
		return neg + strconv.FormatInt(int64(d/time.Microsecond), 10) + "µs"
	case d < time.Second:
		return neg + strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
	case d < time.Minute:
		return neg + strconv.FormatFloat(float64(d/time.Millisecond)/1000, 'f', 3, 64) + "s"
	case d < time.Hour:
		return fmt.Sprintf("%s%dm%02ds", neg, int(d/time.Minute), int(d%time.Minute/time.Second))
	case d < year:
		return fmt.Sprintf("%s%dh%02dm", neg, int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return neg + DurNS(float64(d))
}

// year is the mean Gregorian year.
const year = 365*24*time.Hour + 5*time.Hour + 49*time.Minute + 12*time.Second

// DurNS formats a duration given in nanoseconds as a float64, which may exceed what a
// time.Duration holds (an absurd clock), like Dur: from a year on as 9998y.
func DurNS(ns float64) string {
	switch {
	case math.IsNaN(ns):
		return "?"
	case ns < 0:
		return "-" + DurNS(-ns)
	case math.IsInf(ns, 1) || ns >= 1e30:
		return "∞"
	case ns < float64(year):
		return Dur(time.Duration(ns))
	}
	y := int64(ns / float64(year))
	if y >= 100 {
		return strconv.FormatInt(y, 10) + "y"
	}
	return fmt.Sprintf("%dy%03dd", y, int64((ns-float64(y)*float64(year))/float64(24*time.Hour)))
}

// Count formats an integer with thousands separators: 1234567 → 1,234,567.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := ""
	if n < 0 {
		neg, s = "-", s[1:]
	}
	if len(s) <= 3 {
		return neg + s
	}
	var b strings.Builder
	pre := len(s) % 3
	if pre > 0 {
		b.WriteString(s[:pre])
	}
	for i := pre; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return neg + b.String()
}

// Cost formats a cost in US dollars: $0.0123, $1.23, $1.2e+15 from a trillion on, $∞ for a
// sum that overflowed.
func Cost(usd float64) string {
	switch {
	case usd == 0:
		return "$0"
	case math.IsNaN(usd):
		return "$?"
	case math.IsInf(usd, 0):
		if usd < 0 {
			return "-$∞"
		}
		return "$∞"
	case math.Abs(usd) >= 1e12:
		return "$" + strconv.FormatFloat(usd, 'g', 3, 64)
	case usd < 0.01:
		return "$" + strconv.FormatFloat(usd, 'f', 4, 64)
	}
	return "$" + strconv.FormatFloat(usd, 'f', 2, 64)
}
