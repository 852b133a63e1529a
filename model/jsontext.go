package model

import (
	"encoding/binary"
	"encoding/json"
	"strconv"
)

// JSONText is a string attribute value kept as the JSON string literal of the log line it was
// read from, quotes and escapes included. A LineDecoder with KeepText set stores long attribute
// strings this way when the literal is exactly what encoding/json writes for the string (so
// writing the literal back is the same as encoding the string): renderers then copy it instead
// of unescaping and escaping it again. Use AttrString or String for the text itself.
type JSONText string

// String returns the text the literal stands for.
func (t JSONText) String() string {
	if s, err := strconv.Unquote(string(t)); err == nil {
		return s
	}
	var s string
	_ = json.Unmarshal([]byte(t), &s) // unreachable for a literal the decoder kept
	return s
}

// MarshalJSON returns the literal.
func (t JSONText) MarshalJSON() ([]byte, error) { return []byte(t), nil }

// AttrString returns an attribute value that is text (a string or a JSONText) as a string.
func AttrString(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case JSONText:
		return v.String(), true
	}
	return "", false
}

// minJSONText is the shortest string (in bytes of its literal) kept as JSONText.
const minJSONText = 64

// jsonText returns the string literal at p.i as a JSONText when it is long and written exactly as
// both encoding/json and lifeline's renderers write strings (short escapes for ", \, \n, \r and
// \t; \u00XX for other control characters but backspace and form feed, which they write
// differently, and for <, > and &; \u2028 and \u2029), leaving p.i after it; else it returns
// false and leaves p.i where it was.
func (p *fastParser) jsonText() (JSONText, bool) {
	b := p.b
	if p.i >= len(b) || b[p.i] != '"' {
		return "", false
	}
	for j := p.i + 1; j < len(b); j++ {
		for j+8 <= len(b) && !textSpecial(binary.LittleEndian.Uint64(b[j:])) {
			j += 8 // eight bytes written as they are
		}
		if j >= len(b) {
			break
		}
		switch c := b[j]; {
		case c == '"':
			if j+1-p.i < minJSONText {
				return "", false
			}
			t := JSONText(b[p.i : j+1])
			p.i = j + 1
			return t, true
		case c == '<' || c == '>' || c == '&' || c < 0x20:
			return "", false
		case c == 0xE2 && j+2 < len(b) && b[j+1] == 0x80 && (b[j+2] == 0xA8 || b[j+2] == 0xA9):
			return "", false // U+2028, U+2029 are written escaped
		case c == '\\':
			if j+1 >= len(b) {
				return "", false
			}
			switch b[j+1] {
			case '"', '\\', 'n', 'r', 't':
				j++
			case 'u':
				if j+5 >= len(b) || !canonicalUEscape(b[j+2:j+6]) {
					return "", false
				}
				j += 5
			default:
				return "", false
			}
		}
	}
	return "", false
}

// textSpecial reports whether the eight bytes of w may hold a byte jsonText looks at: a quote,
// a backslash, a control character, <, > or &, or the first byte of U+2028 and U+2029. A true
// answer may be wrong, a false one never is.
func textSpecial(w uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(x uint64) uint64 { return (x - ones) & ^x & highs }
	// " and & differ in one bit (0x22, 0x26), as do < and > (0x3c, 0x3e): one test each pair
	return zero((w|ones*0x04)^(ones*'&'))|zero((w|ones*0x02)^(ones*'>'))|zero(w^(ones*'\\'))|
		((w-ones*0x20)&^w&highs)|zero(w^(ones*0xE2)) != 0
}

// canonicalUEscape reports whether the four hex digits h are a \u escape encoding/json writes.
func canonicalUEscape(h []byte) bool {
	var r rune
	for _, c := range h {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		default:
			return false // encoding/json writes lower-case hex
		}
	}
	switch {
	case r < 0x20:
		return r != '\n' && r != '\r' && r != '\t' && r != '\b' && r != '\f'
	case r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029:
		return true
	}
	return false
}
