package join

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// literals returns the constant parts of the string literals of a source text ("...", '...',
// `...`), split at interpolations (${…}, {…}) and format verbs (%d, %s, %v, %w, %q): the pieces
// of an error message the code writes verbatim. Pieces shorter than four characters or without a
// letter say nothing and are dropped.
func literals(src string) []string {
	var out []string
	for i := 0; i < len(src); i++ {
		q := src[i]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		j := i + 1
		var b strings.Builder
		for ; j < len(src) && src[j] != q; j++ {
			if src[j] == '\\' && j+1 < len(src) {
				j++
				b.WriteByte(' ') // an escape breaks a piece
				continue
			}
			b.WriteByte(src[j])
		}
		out = append(out, pieces(b.String())...)
		i = j
	}
	return out
}

// pieces splits a literal's text at interpolations and format verbs.
func pieces(s string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		p := strings.TrimSpace(cur.String())
		cur.Reset()
		if utf8.RuneCountInString(p) >= 4 && strings.IndexFunc(p, unicode.IsLetter) >= 0 {
			out = append(out, p)
		}
	}
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '{' || (c == '$' && i+1 < len(s) && s[i+1] == '{'):
			if depth == 0 {
				flush()
			}
			depth++
			if c == '$' {
				i++
			}
		case c == '}' && depth > 0:
			depth--
		case depth > 0:
		case c == '%' && i+1 < len(s):
			flush()
			i++
			for i < len(s) && strings.IndexByte("+-# 0123456789.", s[i]) >= 0 {
				i++
			}
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// identIn reports whether name occurs in text as a whole identifier (not inside a longer one).
func identIn(text, name string) bool {
	if name == "" {
		return false
	}
	for i := 0; ; {
		k := strings.Index(text[i:], name)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(name)
		if (k == 0 || !identByte(text[k-1])) && (end == len(text) || !identByte(text[end])) {
			return true
		}
		i = k + 1
	}
}

func identByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
