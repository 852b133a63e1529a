package otlp

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// The fast reader: a hand-written scanner for the usual shape of a one-line OTLP record (what
// the Collector file exporter and the SDK exporters write). It validates the whole record as the
// token reader does, but gives up (ok false) on anything unusual — a problem to report, an
// escaped member name, a \u escape, a number where a string is expected, a value before its
// key — and the record is then read again by the token reader, which has the exact diagnostics.
// So both readers give the same spans; TestFastReaderEquivalence checks it.

type bail struct{}

type fastReader struct {
	data  []byte
	i     int
	line  int
	spans []*spantree.Span
	buf   []byte
	depth int
	// strs interns strings: attribute keys, ids, names and small values repeat from span to
	// span and record to record.
	strs *model.Interner
	// lastTrace, lastID and lastParent are the ids of the span read last.
	lastTrace, lastID, lastParent string
	// ctl is set when the record holds a byte below 0x20 anywhere (as JSON whitespace, or
	// raw inside a string, which makes it invalid): only then does rawString look for them.
	ctl bool
	// attrs is the attribute map of the span being read, reused (classify keeps none of it
	// but values).
	attrs map[string]any
}

// readers keeps fastReaders (with their interned strings and maps) from record to record.
var readers = sync.Pool{New: func() any {
	return &fastReader{strs: model.NewInterner(), attrs: make(map[string]any, 16)}
}}

// fastRecord reads one single-line record; ok is false when the token reader must read it.
func fastRecord(data []byte, line int) (spans []*spantree.Span, ok bool) {
	f := readers.Get().(*fastReader)
	f.data, f.i, f.line, f.depth, f.spans = data, 0, line, 0, nil
	f.ctl = hasControl(data)
	defer func() {
		f.data, f.spans = nil, nil
		readers.Put(f)
	}()
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bail); !isBail {
				panic(r)
			}
			spans, ok = nil, false
		}
	}()
	f.ws()
	if f.peek() != '{' {
		return nil, false
	}
	f.object(func(n []byte) {
		switch string(n) {
		case "resourceSpans", "resource_spans":
			f.array(f.resourceSpans)
		default:
			f.skip()
		}
	})
	f.ws()
	if f.i != len(f.data) {
		return nil, false
	}
	return f.spans, true
}

func (f *fastReader) fail() { panic(bail{}) }

func (f *fastReader) ws() {
	for f.i < len(f.data) {
		switch f.data[f.i] {
		case ' ', '\t', '\n', '\r':
			f.i++
		default:
			return
		}
	}
}

// peek returns the next significant byte (0 at the end).
func (f *fastReader) peek() byte {
	f.ws()
	if f.i >= len(f.data) {
		return 0
	}
	return f.data[f.i]
}

func (f *fastReader) expect(c byte) {
	if f.peek() != c {
		f.fail()
	}
	f.i++
}

// rawString reads a string and returns its bytes between the quotes, and whether it has escapes
// (only the short escapes are accepted: \u gives up). It jumps from quote to backslash with
// bytes.IndexByte; control characters are looked for only when the record has any (ctl).
func (f *fastReader) rawString() ([]byte, bool) {
	f.expect('"')
	start := f.i
	esc := false
	d := f.data
	i, q := f.i, -1 // q: the next quote at or after i, once found
	for {
		if q < i {
			n := bytes.IndexByte(d[i:], '"')
			if n < 0 {
				f.fail()
			}
			q = i + n
		}
		bs := bytes.IndexByte(d[i:q], '\\')
		if bs < 0 {
			if f.ctl && hasControl(d[i:q]) {
				f.fail()
			}
			f.i = q + 1
			return d[start:q], esc
		}
		k := i + bs
		if f.ctl && hasControl(d[i:k]) {
			f.fail()
		}
		if k+1 >= len(d) {
			f.fail()
		}
		switch d[k+1] {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		default:
			f.fail()
		}
		esc = true
		i = k + 2
	}
}

// hasControl reports whether b holds a byte below 0x20 (not allowed unescaped in a string). It
// looks at eight bytes at a time: x - 0x20 in a byte borrows (sets its top bit) only when the
// byte is below 0x20 or a lower one borrowed, and a byte with its top bit set is excluded.
func hasControl(b []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if (w-ones*0x20)&^w&highs != 0 {
			break // a control byte in this word (or a false alarm: checked byte by byte)
		}
	}
	for ; i < len(b); i++ {
		if b[i] < 0x20 {
			return true
		}
	}
	return false
}

func (f *fastReader) unescape(raw []byte) []byte {
	f.buf = f.buf[:0]
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			f.buf = append(f.buf, c)
			continue
		}
		i++
		switch raw[i] {
		case 'b':
			c = '\b'
		case 'f':
			c = '\f'
		case 'n':
			c = '\n'
		case 'r':
			c = '\r'
		case 't':
			c = '\t'
		default:
			c = raw[i]
		}
		f.buf = append(f.buf, c)
	}
	return f.buf
}

// intern returns b as a string, shared with the equal strings of the record when short.
func (f *fastReader) intern(b []byte) string {
	if f.strs == nil || len(b) > 64 {
		return string(b)
	}
	return f.strs.Get(b)
}

// str reads a string value (null is ""); anything else gives up.
func (f *fastReader) str() string {
	switch f.peek() {
	case '"':
		raw, esc := f.rawString()
		if esc {
			return f.intern(f.unescape(raw))
		}
		return f.intern(raw)
	case 'n':
		f.literal("null")
		return ""
	}
	f.fail()
	return ""
}

func (f *fastReader) literal(l string) {
	if !bytes.HasPrefix(f.data[f.i:], []byte(l)) {
		f.fail()
	}
	f.i += len(l)
}

// number reads a JSON number and returns its text.
func (f *fastReader) number() []byte {
	f.ws()
	d := f.data
	start := f.i
	i := f.i
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(d) && d[i] >= '0' && d[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(d) && d[i] == '0' {
		i++
	} else if digits() == 0 {
		f.fail()
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			f.fail()
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			f.fail()
		}
	}
	f.i = i
	return d[start:i]
}

// skip validates and skips one value.
func (f *fastReader) skip() {
	f.depth++
	if f.depth > 1000 {
		f.fail()
	}
	f.skipValue()
	f.depth--
}

func (f *fastReader) skipValue() {
	switch f.peek() {
	case '"':
		f.rawString()
	case '{':
		f.i++
		if f.peek() == '}' {
			f.i++
			return
		}
		for {
			f.rawString()
			f.expect(':')
			f.skip()
			switch f.peek() {
			case ',':
				f.i++
			case '}':
				f.i++
				return
			default:
				f.fail()
			}
		}
	case '[':
		f.i++
		if f.peek() == ']' {
			f.i++
			return
		}
		for {
			f.skip()
			switch f.peek() {
			case ',':
				f.i++
			case ']':
				f.i++
				return
			default:
				f.fail()
			}
		}
	case 't':
		f.literal("true")
	case 'f':
		f.literal("false")
	case 'n':
		f.literal("null")
	default:
		f.number()
	}
}

// object iterates the members of an object; fn must consume the value. Escaped names give up.
func (f *fastReader) object(fn func(name []byte)) {
	f.expect('{')
	if f.peek() == '}' {
		f.i++
		return
	}
	for {
		n, esc := f.rawString()
		if esc {
			f.fail()
		}
		f.expect(':')
		fn(n)
		switch f.peek() {
		case ',':
			f.i++
		case '}':
			f.i++
			return
		default:
			f.fail()
		}
	}
}

// array iterates the elements of an array (null is an empty array).
func (f *fastReader) array(fn func()) {
	switch f.peek() {
	case 'n':
		f.literal("null")
		return
	case '[':
	default:
		f.fail()
	}
	f.i++
	if f.peek() == ']' {
		f.i++
		return
	}
	for {
		fn()
		switch f.peek() {
		case ',':
			f.i++
		case ']':
			f.i++
			return
		default:
			f.fail()
		}
	}
}

func (f *fastReader) resourceSpans() {
	var resSession string
	f.object(func(n []byte) {
		switch string(n) {
		case "resource":
			f.object(func(n []byte) {
				if string(n) != "attributes" {
					f.skip()
					return
				}
				attrs := map[string]any{}
				f.attributes(attrs, spanAttrs)
				resSession = sessionOf(newAttrSet(attrs))
			})
		case "scopeSpans", "scope_spans", "instrumentationLibrarySpans", "instrumentation_library_spans":
			f.array(func() { f.scopeSpans(resSession) })
		default:
			f.skip()
		}
	})
}

func (f *fastReader) scopeSpans(resSession string) {
	scope := ""
	f.object(func(n []byte) {
		switch string(n) {
		case "scope", "instrumentationLibrary", "instrumentation_library":
			f.object(func(n []byte) {
				if string(n) == "name" {
					scope = f.str()
					return
				}
				f.skip()
			})
		case "spans":
			f.array(func() { f.span(scope, resSession) })
		default:
			f.skip()
		}
	})
}

func (f *fastReader) span(scope, resSession string) {
	clear(f.attrs)
	s := raw{line: f.line, attrs: f.attrs}
	f.object(func(n []byte) {
		switch string(n) {
		case "traceId", "trace_id":
			s.trace = f.id(&f.lastTrace)
		case "spanId", "span_id":
			s.id = f.id(&f.lastID)
		case "parentSpanId", "parent_span_id":
			s.parent = f.id(&f.lastParent)
		case "name":
			s.name = f.str()
		case "startTimeUnixNano", "start_time_unix_nano":
			s.start = f.time()
		case "endTimeUnixNano", "end_time_unix_nano":
			s.end = f.time()
		case "attributes":
			f.attributes(s.attrs, spanAttrs)
		case "events":
			f.array(func() { f.event(&s) })
		case "status":
			f.object(func(n []byte) {
				switch string(n) {
				case "code":
					s.code = f.statusCode()
				case "message":
					s.message = f.str()
				default:
					f.skip()
				}
			})
		default:
			f.skip()
		}
	})
	if s.id == "" {
		f.fail() // reported by the token reader
	}
	f.spans = append(f.spans, classify(&s, scope, resSession))
}

// id reads a trace or span id as parser.id does; anything it would report gives up.
func (f *fastReader) id(last *string) string {
	if f.peek() != '"' {
		return f.str()
	}
	raw, esc := f.rawString()
	if esc {
		f.fail()
	}
	if len(raw) == 0 {
		return ""
	}
	hexOK := true
	upper := false
	for _, c := range raw {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			upper = true
		default:
			hexOK = false
		}
	}
	if hexOK {
		if len(raw)%2 != 0 {
			f.fail()
		}
		if upper {
			return f.intern([]byte(strings.ToLower(string(raw))))
		}
		if *last != string(raw) { // ids repeat from span to span (trace, parent): no hashing
			*last = string(raw)
		}
		return *last
	}
	if b, err := base64.StdEncoding.DecodeString(string(raw)); err == nil && (len(b) == 8 || len(b) == 16) {
		return f.intern([]byte(hex.EncodeToString(b)))
	}
	f.fail()
	return ""
}

func (f *fastReader) time() time.Time {
	switch f.peek() {
	case '"':
		raw, esc := f.rawString()
		if esc {
			f.fail()
		}
		if n, ok := digits(raw); ok && !(len(raw) == 1 && raw[0] == '0') {
			return spantree.FromEpoch(n) // what ParseTime gives, without its string
		}
		t, err := spantree.ParseTime(string(raw))
		if err != nil {
			f.fail()
		}
		return t
	case 'n':
		f.literal("null")
		return time.Time{}
	}
	f.fail()
	return time.Time{}
}

func (f *fastReader) statusCode() tracepb.Status_StatusCode {
	switch c := f.peek(); {
	case c == '-' || c >= '0' && c <= '9':
		n, err := strconv.ParseInt(string(f.number()), 10, 32)
		if err != nil {
			f.fail()
		}
		return tracepb.Status_StatusCode(n)
	case c == '"':
		raw, esc := f.rawString()
		if esc {
			f.fail()
		}
		s := string(raw)
		if v, ok := tracepb.Status_StatusCode_value[s]; ok {
			return tracepb.Status_StatusCode(v)
		}
		switch strings.ToUpper(s) {
		case "ERROR":
			return tracepb.Status_STATUS_CODE_ERROR
		case "OK":
			return tracepb.Status_STATUS_CODE_OK
		}
		n, _ := strconv.Atoi(s)
		return tracepb.Status_StatusCode(n)
	}
	f.skip()
	return tracepb.Status_STATUS_CODE_UNSET
}

func (f *fastReader) event(s *raw) {
	var name string
	var ts time.Time
	attrs := map[string]any{}
	f.object(func(n []byte) {
		switch string(n) {
		case "name":
			name = f.str()
		case "timeUnixNano", "time_unix_nano":
			ts = f.time()
		case "attributes":
			f.attributes(attrs, eventAttrs)
		default:
			f.skip()
		}
	})
	switch {
	case name == "exception":
		e := &model.ErrorInfo{}
		e.Kind, _ = attrs["exception.type"].(string)
		e.Message, _ = attrs["exception.message"].(string)
		if s.exc == nil {
			s.exc = e
		}
	case model.EventType(name).Valid() && (strings.Contains(name, "/") || attrs["lifeline.event"] != nil):
		s.events = append(s.events, spantree.SpanEvent{Name: name, TS: ts, Attrs: attrs})
	}
}

// attributes reads a KeyValue list into m (only the kept keys); a value before its key gives up.
func (f *fastReader) attributes(m map[string]any, where int) {
	f.array(func() {
		if f.attribute(m, where) {
			return
		}
		var key []byte
		haveKey := false
		f.object(func(n []byte) {
			switch string(n) {
			case "key":
				if f.peek() != '"' {
					f.fail()
				}
				k, esc := f.rawString()
				if esc {
					f.fail()
				}
				key, haveKey = k, true
			case "value":
				if !haveKey {
					f.fail()
				}
				if keep(key, where) {
					m[f.intern(key)] = f.anyValue()
				} else {
					f.skip()
				}
			default:
				f.skip()
			}
		})
	})
}

// attribute reads one element of an attributes array in the shape exporters write,
// {"key":"k","value":{…}}, without the general member loop. It returns false, having read
// nothing, for any other shape (spaces, other order, more members, escapes in the key), which
// attributes then reads the general way.
func (f *fastReader) attribute(m map[string]any, where int) bool {
	const pre, mid = `{"key":"`, `,"value":`
	start := f.i
	d := f.data
	if !bytes.HasPrefix(d[start:], []byte(pre)) {
		return false
	}
	k := start + len(pre)
	q := bytes.IndexByte(d[k:], '"')
	if q < 0 {
		return false
	}
	key := d[k : k+q]
	if bytes.IndexByte(key, '\\') >= 0 || f.ctl && hasControl(key) {
		return false
	}
	if !bytes.HasPrefix(d[k+q+1:], []byte(mid)) {
		return false
	}
	f.i = k + q + 1 + len(mid)
	var v any
	kept := keep(key, where)
	if kept {
		v = f.anyValue()
	} else {
		f.skip()
	}
	if f.i >= len(d) || d[f.i] != '}' {
		f.i = start
		return false
	}
	f.i++
	if kept {
		m[f.intern(key)] = v
	}
	return true
}

// anyValue reads an OTLP AnyValue as parser.anyValue does.
func (f *fastReader) anyValue() any {
	var out any
	f.depth++
	if f.depth > 1000 {
		f.fail()
	}
	defer func() { f.depth-- }()
	if f.peek() != '{' {
		f.skip()
		return nil
	}
	// the common {"stringValue":…} without the general member loop
	if sv := `{"stringValue":`; bytes.HasPrefix(f.data[f.i:], []byte(sv)) {
		start := f.i
		f.i += len(sv)
		if s := f.str(); f.i < len(f.data) && f.data[f.i] == '}' {
			f.i++
			return s
		}
		f.i = start
	}
	f.object(func(n []byte) {
		switch string(n) {
		case "stringValue", "string_value", "bytesValue", "bytes_value":
			out = f.str()
		case "boolValue", "bool_value":
			switch f.peek() {
			case 't':
				f.literal("true")
				out = true
			case 'f':
				f.literal("false")
				out = false
			case '"':
				raw, esc := f.rawString()
				out = !esc && string(raw) == "true"
			default:
				f.skip()
			}
		case "intValue", "int_value":
			switch c := f.peek(); {
			case c == '-' || c >= '0' && c <= '9':
				n, err := strconv.ParseInt(string(f.number()), 10, 64)
				if err != nil {
					f.fail()
				}
				out = n
			case c == '"':
				raw, esc := f.rawString()
				if esc {
					f.fail()
				}
				n, _ := strconv.ParseInt(string(raw), 10, 64)
				out = n
			default:
				f.skip()
			}
		case "doubleValue", "double_value":
			switch c := f.peek(); {
			case c == '-' || c >= '0' && c <= '9':
				v, err := strconv.ParseFloat(string(f.number()), 64)
				if err != nil {
					f.fail()
				}
				out = v
			case c == '"':
				raw, esc := f.rawString()
				if esc {
					f.fail()
				}
				v, _ := strconv.ParseFloat(string(raw), 64)
				out = v
			default:
				f.skip()
			}
		case "arrayValue", "array_value":
			var list []any
			f.object(func(n []byte) {
				if string(n) != "values" {
					f.skip()
					return
				}
				f.array(func() { list = append(list, f.anyValue()) })
			})
			if list == nil {
				list = []any{}
			}
			out = list
		case "kvlistValue", "kvlist_value":
			m := map[string]any{}
			f.object(func(n []byte) {
				if string(n) != "values" {
					f.skip()
					return
				}
				f.array(func() {
					var k string
					var v any
					f.object(func(n []byte) {
						switch string(n) {
						case "key":
							k = f.str()
						case "value":
							v = f.anyValue()
						default:
							f.skip()
						}
					})
					m[k] = v
				})
			})
			out = m
		default:
			f.skip()
		}
	})
	return out
}

// fastToolCalls lists the tool_call parts of a gen_ai.output.messages JSON string as requests
// does after json.Unmarshal into []any; ok is false when that must be done (anything unusual).
func fastToolCalls(s string) (out []spantree.Request, ok bool) {
	if !strings.Contains(s, "tool_call") && !strings.Contains(s, `\u`) {
		return nil, true // no part can have the type
	}
	f := fastReader{data: []byte(s), ctl: hasControl([]byte(s))} // no interning: its strings are few
	defer func() {
		if r := recover(); r != nil {
			if _, isBail := r.(bail); !isBail {
				panic(r)
			}
			out, ok = nil, false
		}
	}()
	if f.peek() != '[' {
		return nil, false
	}
	f.array(func() {
		if f.peek() != '{' {
			f.skip()
			return
		}
		var msg []spantree.Request
		f.object(func(n []byte) {
			if string(n) != "parts" {
				f.skip()
				return
			}
			msg = msg[:0]
			if f.peek() != '[' {
				f.skip()
				return
			}
			f.array(func() {
				if f.peek() != '{' {
					f.skip()
					return
				}
				var typ, id, name string
				f.object(func(n []byte) {
					var dst *string
					switch string(n) {
					case "type":
						dst = &typ
					case "id":
						dst = &id
					case "name":
						dst = &name
					default:
						f.skip()
						return
					}
					*dst = ""
					if f.peek() == '"' {
						*dst = f.str()
					} else {
						f.skip()
					}
				})
				if typ == "tool_call" {
					msg = append(msg, spantree.Request{ID: id, Name: name})
				}
			})
		})
		out = append(out, msg...)
	})
	f.ws()
	if f.i != len(f.data) {
		return nil, false
	}
	return out, true
}

// digits parses 1 to 18 decimal digits.
func digits(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 19 { // 19 digits: nanoseconds since the epoch
		return 0, false
	}
	var n uint64 // below 10^19 < 2^64: no overflow
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n > math.MaxInt64 {
		return 0, false
	}
	return int64(n), true
}
