package model

import (
	"errors"
	"hash/maphash"
	"math"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// errSlow makes decodeFast give up; DecodeLine then runs the general decoder, which also
// produces the precise error message for bad input.
var errSlow = errors.New("slow path")

// decodeFast parses one canonical event without reflection. It handles every well-formed line
// (any key order, escapes, unknown keys) and returns errSlow for anything unusual — malformed
// JSON, duplicate keys, values of the wrong type — so that behaviour stays exactly that of the
// general decoder (FuzzFastDecode compares the two).
func decodeFast(b []byte, ev *Event, intern *Interner, keepText bool) error {
	p := fastParser{b: b, intern: intern, keepText: keepText}
	if !p.consume('{') {
		return errSlow
	}
	var seen uint64
	if p.peek() == '}' {
		p.i++
		return p.end()
	}
	for {
		key, ok := p.rawString()
		if !ok || !p.consume(':') {
			return errSlow
		}
		bit, ok := p.field(key, ev)
		if !ok {
			return errSlow
		}
		if bit != 0 {
			if seen&bit != 0 {
				return errSlow // duplicate key: let the general decoder report it
			}
			seen |= bit
		}
		switch p.next() {
		case ',':
			continue
		case '}':
			return p.end()
		default:
			return errSlow
		}
	}
}

type fastParser struct {
	b []byte
	i int
	// intern shares one copy of short strings (ids, names, enums); nil: no interning.
	intern *Interner
	// keepText keeps long attribute strings as JSONText.
	keepText bool
}

// maxInterned is the longest string interned; longer values are copied.
const maxInterned = 64

// text returns b as a string: a shared copy for short strings when interning, else a new one.
// Values never point into the line, so the tree keeps only what it uses of a log.
func (p *fastParser) text(b []byte) string {
	if p.intern == nil || len(b) > maxInterned {
		return string(b)
	}
	return p.intern.Get(b)
}

// internSlots is the size of an Interner (a power of two).
const internSlots = 1 << 13

// Interner shares one copy of the short strings that nearby records repeat (the ids of one run,
// names, enum values): a direct-mapped cache, where a collision replaces the slot, so it never
// grows and costs one hash and one comparison per lookup. Not safe for concurrent use.
type Interner struct {
	seed  maphash.Seed
	slots [internSlots]string
}

// NewInterner returns an empty Interner.
func NewInterner() *Interner { return &Interner{seed: maphash.MakeSeed()} }

// Get returns b as a string, the copy already held when there is one.
func (t *Interner) Get(b []byte) string {
	slot := &t.slots[maphash.Bytes(t.seed, b)&(internSlots-1)]
	if *slot == string(b) {
		return *slot
	}
	s := string(b)
	*slot = s
	return s
}

func (p *fastParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *fastParser) peek() byte {
	p.ws()
	if p.i >= len(p.b) {
		return 0
	}
	return p.b[p.i]
}

func (p *fastParser) next() byte {
	c := p.peek()
	if c != 0 {
		p.i++
	}
	return c
}

func (p *fastParser) consume(c byte) bool {
	if p.peek() != c {
		return false
	}
	p.i++
	return true
}

func (p *fastParser) end() error {
	p.ws()
	if p.i != len(p.b) {
		return errSlow
	}
	return nil
}

// rawString returns the bytes of a string without escapes (ok=false if it has any, or is not a
// string): keys are compared as raw bytes.
func (p *fastParser) rawString() ([]byte, bool) {
	if !p.consume('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			s := p.b[start:p.i]
			p.i++
			return s, true
		}
		if c == '\\' || c < 0x20 {
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// str parses a JSON string value, unescaping it, sharing the copy of short repeated values.
func (p *fastParser) str() (string, bool) { return p.strv(true) }

// strUnique parses a string that is seldom repeated (call ids, free text): never interned.
func (p *fastParser) strUnique() (string, bool) { return p.strv(false) }

func (p *fastParser) strv(intern bool) (string, bool) {
	if !p.consume('"') {
		return "", false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		if c == '"' {
			var s string
			if intern {
				s = p.text(p.b[start:p.i])
			} else {
				s = string(p.b[start:p.i])
			}
			p.i++
			return s, true
		}
		if c == '\\' {
			return p.escaped(start)
		}
		if c < 0x20 {
			return "", false
		}
		p.i++
	}
	return "", false
}

func (p *fastParser) escaped(start int) (string, bool) {
	end := p.i // find the closing quote first, to allocate once
	for end < len(p.b) && p.b[end] != '"' {
		if p.b[end] == '\\' {
			end++
		}
		end++
	}
	out := make([]byte, 0, end-start)
	out = append(out, p.b[start:p.i]...)
	for p.i < len(p.b) {
		j := p.i // copy the run up to the next quote, backslash or control byte at once
		for j < len(p.b) && p.b[j] != '"' && p.b[j] != '\\' && p.b[j] >= 0x20 {
			j++
		}
		out = append(out, p.b[p.i:j]...)
		p.i = j
		if p.i >= len(p.b) {
			break
		}
		switch c := p.b[p.i]; {
		case c == '"':
			p.i++
			return string(out), true
		case c < 0x20:
			return "", false
		}
		if p.i+1 >= len(p.b) {
			return "", false
		}
		e := p.b[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := p.hex4()
			if !ok {
				return "", false
			}
			if utf16.IsSurrogate(r) {
				if p.i+6 > len(p.b) || p.b[p.i] != '\\' || p.b[p.i+1] != 'u' {
					return "", false // lone surrogate: leave the replacement rules to the general decoder
				}
				p.i += 2
				r2, ok := p.hex4()
				if !ok {
					return "", false
				}
				r = utf16.DecodeRune(r, r2)
				if r == utf8.RuneError {
					return "", false
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return "", false
		}
	}
	return "", false
}

func (p *fastParser) hex4() (rune, bool) {
	if p.i+4 > len(p.b) {
		return 0, false
	}
	var r rune
	for _, c := range p.b[p.i : p.i+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c - 'a' + 10)
		case c >= 'A' && c <= 'F':
			r |= rune(c - 'A' + 10)
		default:
			return 0, false
		}
	}
	p.i += 4
	return r, true
}

// number returns the raw bytes of a JSON number.
func (p *fastParser) number() ([]byte, bool) {
	p.ws()
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		p.i++
	}
	if p.i == digits || (p.b[digits] == '0' && p.i-digits > 1) {
		return nil, false
	}
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		f := p.i
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
		}
		if p.i == f {
			return nil, false
		}
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		f := p.i
		for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
			p.i++
		}
		if p.i == f {
			return nil, false
		}
	}
	return p.b[start:p.i], true
}

func (p *fastParser) int64() (int64, bool) {
	n, ok := p.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(n), 10, 64)
	return v, err == nil
}

func (p *fastParser) float() (float64, bool) {
	n, ok := p.number()
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(string(n), 64)
	return v, err == nil && !math.IsInf(v, 0)
}

func (p *fastParser) boolean() (bool, bool) {
	p.ws()
	switch {
	case hasAt(p.b, p.i, "true"):
		p.i += 4
		return true, true
	case hasAt(p.b, p.i, "false"):
		p.i += 5
		return false, true
	}
	return false, false
}

// null consumes a JSON null if one is next.
func (p *fastParser) null() bool {
	p.ws()
	if hasAt(p.b, p.i, "null") {
		p.i += 4
		return true
	}
	return false
}

func hasAt(b []byte, i int, s string) bool {
	return len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

func (p *fastParser) strings() ([]string, bool) {
	if p.null() {
		return nil, true
	}
	if !p.consume('[') {
		return nil, false
	}
	out := []string{}
	if p.consume(']') {
		return out, true
	}
	for {
		s, ok := p.str()
		if !ok {
			return nil, false
		}
		out = append(out, s)
		switch p.next() {
		case ',':
		case ']':
			return out, true
		default:
			return nil, false
		}
	}
}

// value parses any JSON value the way encoding/json does into an interface{}.
func (p *fastParser) value(depth int) (any, bool) {
	if depth > 64 {
		return nil, false
	}
	switch c := p.peek(); {
	case c == '"':
		if p.keepText {
			if t, ok := p.jsonText(); ok {
				return t, true
			}
		}
		return p.strUnique()
	case c == '{':
		p.i++
		m := map[string]any{}
		if p.consume('}') {
			return m, true
		}
		for {
			k, ok := p.str()
			if !ok || !p.consume(':') {
				return nil, false
			}
			if _, dup := m[k]; dup {
				return nil, false
			}
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			m[k] = v
			switch p.next() {
			case ',':
			case '}':
				return m, true
			default:
				return nil, false
			}
		}
	case c == '[':
		p.i++
		a := []any{}
		if p.consume(']') {
			return a, true
		}
		for {
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			a = append(a, v)
			switch p.next() {
			case ',':
			case ']':
				return a, true
			default:
				return nil, false
			}
		}
	case c == 't' || c == 'f':
		return p.boolean()
	case c == 'n':
		return nil, p.null()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.float()
	}
	return nil, false
}

// field decodes the value of one key into ev and returns the key's bit for duplicate detection.
func (p *fastParser) field(key []byte, ev *Event) (uint64, bool) {
	var ok bool
	switch string(key) {
	case "v":
		var n int64
		n, ok = p.int64()
		ev.V = int(n)
		return 1 << 0, ok && n == int64(int(n))
	case "seq":
		ev.Seq, ok = p.int64()
		return 1 << 1, ok
	case "ts":
		raw, ok := p.rawString() // a timestamp has no escapes; an escaped one takes the slow path
		if !ok {
			return 0, false
		}
		var t time.Time
		if t.UnmarshalText(raw) != nil || !strictRFC3339(raw) {
			return 0, false
		}
		ev.TS = t
		return 1 << 2, true
	case "type":
		var s string
		s, ok = p.str()
		ev.Type = EventType(s)
		return 1 << 3, ok
	case "session_id":
		ev.SessionID, ok = p.str()
		return 1 << 4, ok
	case "run_id":
		ev.RunID, ok = p.str()
		return 1 << 5, ok
	case "parent_run_id":
		ev.ParentRunID, ok = p.str()
		return 1 << 6, ok
	case "attempt":
		var n int64
		n, ok = p.int64()
		ev.Attempt = int(n)
		return 1 << 7, ok && n == int64(int(n))
	case "turn_id":
		ev.TurnID, ok = p.str()
		return 1 << 8, ok
	case "step_id":
		ev.StepID, ok = p.str()
		return 1 << 9, ok
	case "call_id":
		ev.CallID, ok = p.strUnique()
		return 1 << 10, ok
	case "connection_id":
		ev.ConnectionID, ok = p.str()
		return 1 << 11, ok
	case "input_id":
		ev.InputID, ok = p.strUnique()
		return 1 << 12, ok
	case "status":
		var s string
		s, ok = p.str()
		ev.Status = RunStatus(s)
		return 1 << 13, ok
	case "wait_reason":
		var s string
		s, ok = p.str()
		ev.WaitReason = WaitReason(s)
		return 1 << 14, ok
	case "stop_reason":
		var s string
		s, ok = p.str()
		ev.StopReason = StopReason(s)
		return 1 << 15, ok
	case "outcome":
		var s string
		s, ok = p.str()
		ev.Outcome = Outcome(s)
		return 1 << 16, ok
	case "source":
		var s string
		s, ok = p.str()
		ev.Source = Source(s)
		return 1 << 17, ok
	case "name":
		ev.Name, ok = p.str()
		return 1 << 18, ok
	case "agent_version":
		ev.AgentVersion, ok = p.str()
		return 1 << 19, ok
	case "kind":
		ev.Kind, ok = p.str()
		return 1 << 20, ok
	case "role":
		ev.Role, ok = p.str()
		return 1 << 21, ok
	case "text":
		ev.Text, ok = p.strUnique()
		return 1 << 22, ok
	case "side_effect":
		ev.SideEffect, ok = p.boolean()
		return 1 << 23, ok
	case "idempotency_key":
		ev.IdempotencyKey, ok = p.strUnique()
		return 1 << 24, ok
	case "decision":
		var s string
		s, ok = p.str()
		ev.Decision = Decision(s)
		return 1 << 25, ok
	case "cause":
		ev.Cause, ok = p.strUnique()
		return 1 << 26, ok
	case "consumes":
		ev.Consumes, ok = p.strings()
		return 1 << 27, ok
	case "inferred":
		ev.Inferred, ok = p.strings()
		return 1 << 28, ok
	case "usage":
		if p.null() {
			return 1 << 29, true
		}
		ev.Usage = &Usage{}
		return 1 << 29, p.usage(ev.Usage)
	case "error":
		if p.null() {
			return 1 << 30, true
		}
		ev.Error = &ErrorInfo{}
		return 1 << 30, p.errorInfo(ev.Error)
	case "origin":
		if p.null() {
			return 1 << 31, true
		}
		ev.Origin = &Origin{}
		return 1 << 31, p.origin(ev.Origin)
	case "attrs":
		if p.null() {
			return 1 << 32, true
		}
		if p.peek() != '{' {
			return 0, false
		}
		v, ok := p.value(0)
		if !ok {
			return 0, false
		}
		ev.Attrs = v.(map[string]any)
		return 1 << 32, true
	}
	return 0, false // an unknown or case-folded key: the general decoder decides
}

// object walks the members of a small object, calling fn for each key.
func (p *fastParser) object(fn func(key []byte) bool) bool {
	if !p.consume('{') {
		return false
	}
	if p.consume('}') {
		return true
	}
	seen := map[string]bool{}
	for {
		k, ok := p.rawString()
		if !ok || !p.consume(':') || seen[string(k)] {
			return false
		}
		seen[string(k)] = true
		if !fn(k) {
			return false
		}
		switch p.next() {
		case ',':
		case '}':
			return true
		default:
			return false
		}
	}
}

func (p *fastParser) usage(u *Usage) bool {
	return p.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "input_tokens":
			u.InputTokens, ok = p.int64()
		case "output_tokens":
			u.OutputTokens, ok = p.int64()
		case "cached_tokens":
			u.CachedTokens, ok = p.int64()
		case "cost_usd":
			u.CostUSD, ok = p.float()
		}
		return ok
	})
}

func (p *fastParser) errorInfo(e *ErrorInfo) bool {
	return p.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "kind":
			e.Kind, ok = p.str()
		case "message":
			e.Message, ok = p.strUnique()
		case "retryable":
			e.Retryable, ok = p.boolean()
		}
		return ok
	})
}

func (p *fastParser) origin(o *Origin) bool {
	return p.object(func(k []byte) bool {
		var ok bool
		switch string(k) {
		case "file":
			o.File, ok = p.str()
		case "line":
			var n int64
			n, ok = p.int64()
			o.Line = int(n)
		}
		return ok
	})
}

// strictRFC3339 adds the checks the general decoder makes beyond time.Time.UnmarshalText
// (see go.dev/issue/57912): a two-digit hour, a period before fractional seconds and a time
// zone offset in range.
func strictRFC3339[T string | []byte](s T) bool {
	if len(s) < len("2006-01-02T15:04:05Z") || s[len("2006-01-02T")+1] == ':' || s[len("2006-01-02T15:04:05")] == ',' {
		return false
	}
	if s[len(s)-1] != 'Z' {
		dec2 := func(d T) int { return int(d[0]-'0')*10 + int(d[1]-'0') }
		if dec2(s[len(s)-5:]) >= 24 || dec2(s[len(s)-2:]) >= 60 {
			return false
		}
	}
	return true
}
