// Package otlp reads OpenTelemetry traces in OTLP JSON: the Collector file exporter (one
// TracesData per line, JSON Lines) and OTLP/HTTP JSON bodies (ExportTraceServiceRequest, possibly
// pretty-printed over many lines), including legacy instrumentationLibrarySpans payloads. Span
// meaning comes from the attribute conventions: OpenTelemetry GenAI (both the gen_ai.system and
// gen_ai.provider.name eras), OpenInference (openinference.span.kind, flattened indexed
// attributes re-nested), Langfuse's observation types, and lifeline's own lifeline.* attributes,
// which render/otlp writes so that a file lifeline wrote reads back to the same tree.
//
// The decoder streams: a span is reduced to a compact record as it is read and a trace is
// emitted soon after its root span arrives, so memory is bounded by the traces in flight, not the
// file. The JSON field names and enums are those of the official OTLP protos
// (go.opentelemetry.io/proto/otlp); the token-level reader is cross-checked against protojson
// in the tests. One-line records are first read by a hand-written scanner (fast.go) that gives up
// on anything unusual, leaving the record to the token reader; the tests check that the two agree.
package otlp

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/ingest"
	"github.com/lifeline-dev/lifeline/tracer/otlp/spantree"
)

// Name is the format's name for --input-format.
const Name = "otlp"

// Description says which producers write the format.
const Description = "OTLP JSON traces: Collector file exporter (JSON Lines) or OTLP/HTTP JSON body; GenAI semconv, OpenInference, lifeline.* attributes"

// Detect scores how much head looks like OTLP JSON: a JSON object whose first record has
// resourceSpans (or resource_spans, or legacy instrumentationLibrarySpans).
func Detect(head []byte) int {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') {
		return 0
	}
	if i := bytes.IndexByte(t, '\n'); i > 0 && json.Valid(bytes.TrimSpace(t[:i])) {
		t = t[:i] // JSON Lines: judge the first record only
	}
	for _, k := range []string{`"resourceSpans"`, `"resource_spans"`, `"instrumentationLibrarySpans"`, `"scopeSpans"`} {
		if bytes.Contains(t, []byte(k)) {
			return 90
		}
	}
	return 0
}

// Decode reads OTLP JSON and emits canonical events. Each bad record is reported with its line
// and reading goes on. When r can be read again (an ingest.Reopener: a file), it is first read
// ahead for the traces whose spans come far apart (a child exported in a later batch than its
// parent), which are held back until their last span so that no span is left unplaced; from a
// pipe, a span coming more than spantree.FlushLag spans after its trace was emitted is reported.
func Decode(r io.Reader, em *ingest.Emitter) error {
	b := spantree.NewBuilder(Name, em)
	if b.Holds = holdsOf(r); b.Holds == nil {
		b.LateHint = "; read from a file rather than a pipe, the file is read ahead and such a span placed"
	}
	workers := runtime.GOMAXPROCS(0)
	if workers > 4 {
		workers = 4
	}
	err := spantree.Parallel(r, em, Name, workers, func(rec spantree.Record) *parsed {
		p := parser{rec: rec, out: &parsed{}}
		p.record()
		return p.out
	}, func(out *parsed) {
		for _, e := range out.errs {
			em.Error(e.line, e.err)
		}
		for _, sp := range out.spans {
			b.Add(sp)
		}
		b.FlushReady()
	})
	b.Flush()
	return err
}

// parsed is what one record yields: its spans and its problems, applied in input order.
type parsed struct {
	spans []*spantree.Span
	errs  []lineErr
}

type lineErr struct {
	line int
	err  error
}

type parser struct {
	out  *parsed
	rec  spantree.Record
	d    *jsontext.Decoder
	errs int
	// noFast makes the token reader read every record (tests compare the two readers).
	noFast bool
}

func (p *parser) line() int {
	if p.rec.Lines == nil {
		return p.rec.Line
	}
	return p.rec.Lines.At(int(p.d.InputOffset()))
}

func (p *parser) fail(line int, format string, args ...any) {
	p.errs++
	if p.errs > 5 {
		return
	}
	p.out.errs = append(p.out.errs, lineErr{line, fmt.Errorf("otlp: "+format, args...)})
}

func (p *parser) record() {
	if !utf8.Valid(p.rec.Data) {
		p.fail(p.rec.Line, "invalid UTF-8 in record: expected UTF-8 JSON; record skipped")
		return
	}
	if p.rec.Lines == nil && !p.noFast {
		if spans, ok := fastRecord(p.rec.Data, p.rec.Line); ok {
			p.out.spans = spans
			return
		}
	}
	p.d = jsontext.NewDecoder(bytes.NewReader(p.rec.Data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok && p.rec.Lines == nil {
				p.bad(err)
				return
			}
			p.fail(p.line(), "malformed record: %v", r)
		}
	}()
	switch p.d.PeekKind() {
	case '[':
		p.d.ReadToken()
		for p.d.PeekKind() != ']' && p.d.PeekKind() != 0 {
			p.tracesData()
		}
	case '{':
		p.tracesData()
	default:
		p.bad(fmt.Errorf("record is %s: expected a TracesData object with resourceSpans", kindName(p.d.PeekKind())))
		return
	}
	if _, err := p.d.ReadToken(); err != io.EOF {
		p.bad(fmt.Errorf("unexpected data after the record"))
	}
}

func (p *parser) bad(err error) {
	p.out.errs = append(p.out.errs, lineErr{p.rec.Line, spantree.BadRecordError(Name, p.rec, err)})
}

func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "a string"
	case '0':
		return "a number"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case '[':
		return "an array"
	case '{':
		return "an object"
	}
	return "nothing"
}

// name reads an object member name without allocating for the common case.
func (p *parser) name() (string, bool) {
	v, err := p.d.ReadValue()
	if err != nil {
		panic(err)
	}
	if len(v) < 2 {
		return "", false
	}
	raw := v[1 : len(v)-1]
	if bytes.IndexByte(raw, '\\') >= 0 {
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s, true
		}
	}
	return string(raw), true
}

// object iterates the members of an object, calling fn with each name; fn must consume the value.
func (p *parser) object(what string, fn func(name string)) bool {
	if p.d.PeekKind() != '{' {
		p.fail(p.line(), "%s is %s: expected an object", what, kindName(p.d.PeekKind()))
		p.skip()
		return false
	}
	p.tok()
	for p.d.PeekKind() != '}' {
		n, _ := p.name()
		fn(n)
	}
	p.tok()
	return true
}

// array iterates the elements of an array (null is an empty array).
func (p *parser) array(what string, fn func()) {
	switch p.d.PeekKind() {
	case 'n':
		p.tok()
		return
	case '[':
	default:
		p.fail(p.line(), "%s is %s: expected an array", what, kindName(p.d.PeekKind()))
		p.skip()
		return
	}
	p.tok()
	for p.d.PeekKind() != ']' {
		fn()
	}
	p.tok()
}

func (p *parser) tok() jsontext.Token {
	t, err := p.d.ReadToken()
	if err != nil {
		panic(err)
	}
	return t
}

func (p *parser) skip() {
	if err := p.d.SkipValue(); err != nil {
		panic(err)
	}
}

func (p *parser) str(what string) string {
	switch p.d.PeekKind() {
	case '"':
		return p.tok().String()
	case 'n':
		p.tok()
		return ""
	case '0':
		return p.tok().String()
	}
	p.fail(p.line(), "%s is %s: expected a string", what, kindName(p.d.PeekKind()))
	p.skip()
	return ""
}

func (p *parser) tracesData() {
	p.object("record", func(n string) {
		switch n {
		case "resourceSpans", "resource_spans":
			p.array(n, p.resourceSpans)
		default:
			p.skip()
		}
	})
}

func (p *parser) resourceSpans() {
	var resSession string
	p.object("resourceSpans item", func(n string) {
		switch n {
		case "resource":
			p.object("resource", func(n string) {
				if n != "attributes" {
					p.skip()
					return
				}
				attrs := map[string]any{}
				p.attributes(attrs, 0)
				resSession = sessionOf(newAttrSet(attrs))
			})
		case "scopeSpans", "scope_spans", "instrumentationLibrarySpans", "instrumentation_library_spans":
			p.array(n, func() { p.scopeSpans(resSession) })
		default:
			p.skip()
		}
	})
}

func (p *parser) scopeSpans(resSession string) {
	scope := ""
	p.object("scopeSpans item", func(n string) {
		switch n {
		case "scope", "instrumentationLibrary", "instrumentation_library":
			p.object(n, func(n string) {
				if n == "name" {
					scope = p.str("scope.name")
					return
				}
				p.skip()
			})
		case "spans":
			p.array("spans", func() { p.span(scope, resSession) })
		default:
			p.skip()
		}
	})
}

// raw is a span as read, before classification.
type raw struct {
	trace, id, parent, name string
	start, end              time.Time
	code                    tracepb.Status_StatusCode
	message                 string
	attrs                   map[string]any
	exc                     *model.ErrorInfo
	events                  []spantree.SpanEvent
	line                    int
	bad                     []string
}

func (p *parser) span(scope, resSession string) {
	line := p.line()
	if p.d.PeekKind() == '{' {
		// the span's object starts at the next token; count its line from there
		line = p.lineAfterSpace()
	}
	s := raw{line: line, attrs: map[string]any{}}
	ok := p.object("span", func(n string) {
		switch n {
		case "traceId", "trace_id":
			s.trace = p.id(&s, n)
		case "spanId", "span_id":
			s.id = p.id(&s, n)
		case "parentSpanId", "parent_span_id":
			s.parent = p.id(&s, n)
		case "name":
			s.name = p.str("name")
		case "startTimeUnixNano", "start_time_unix_nano":
			s.start = p.time(&s, n)
		case "endTimeUnixNano", "end_time_unix_nano":
			s.end = p.time(&s, n)
		case "attributes":
			p.attributes(s.attrs, 0)
		case "events":
			p.array("events", func() { p.event(&s) })
		case "status":
			p.object("status", func(n string) {
				switch n {
				case "code":
					s.code = p.statusCode()
				case "message":
					s.message = p.str("status.message")
				default:
					p.skip()
				}
			})
		default:
			p.skip()
		}
	})
	if !ok {
		return
	}
	if len(s.bad) > 0 {
		p.fail(s.line, "span %q: %s", s.name, strings.Join(s.bad, "; "))
	}
	if s.id == "" {
		p.fail(s.line, "span %q has no spanId: expected a 16-hex-digit id; span skipped", s.name)
		return
	}
	p.out.spans = append(p.out.spans, classify(&s, scope, resSession))
}

func (p *parser) lineAfterSpace() int {
	if p.rec.Lines == nil {
		return p.rec.Line
	}
	off := int(p.d.InputOffset())
	data := p.rec.Data
	for off < len(data) && (data[off] == ' ' || data[off] == '\n' || data[off] == '\r' || data[off] == '\t' || data[off] == ',') {
		off++
	}
	return p.rec.Lines.At(off)
}

// id reads a trace or span id: hex as OTLP JSON writes it (any case), or base64 as generic
// proto3 JSON would; normalised to lower-case hex.
func (p *parser) id(s *raw, field string) string {
	v := p.str(field)
	if v == "" {
		return ""
	}
	if isHex(v) {
		if len(v)%2 != 0 {
			s.bad = append(s.bad, fmt.Sprintf("%s %q has an odd number of hex digits", field, v))
		}
		return strings.ToLower(v)
	}
	if b, err := base64.StdEncoding.DecodeString(v); err == nil && (len(b) == 8 || len(b) == 16) {
		return hex.EncodeToString(b)
	}
	s.bad = append(s.bad, fmt.Sprintf("%s %q is neither hex nor base64: kept as is", field, v))
	return v
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func (p *parser) time(s *raw, field string) time.Time {
	switch p.d.PeekKind() {
	case '"', '0':
		t, err := spantree.ParseTime(p.tok().String())
		if err != nil {
			s.bad = append(s.bad, fmt.Sprintf("%s: %v", field, err))
		}
		return t
	case 'n':
		p.tok()
		return time.Time{}
	}
	s.bad = append(s.bad, fmt.Sprintf("%s is %s: expected nanoseconds since the epoch as a decimal string", field, kindName(p.d.PeekKind())))
	p.skip()
	return time.Time{}
}

func (p *parser) statusCode() tracepb.Status_StatusCode {
	switch p.d.PeekKind() {
	case '0':
		return tracepb.Status_StatusCode(p.tok().Int())
	case '"':
		s := p.tok().String()
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
	p.skip()
	return tracepb.Status_STATUS_CODE_UNSET
}

func (p *parser) event(s *raw) {
	var name string
	var ts time.Time
	attrs := map[string]any{}
	p.object("event", func(n string) {
		switch n {
		case "name":
			name = p.str("event.name")
		case "timeUnixNano", "time_unix_nano":
			ts = p.time(s, "event.timeUnixNano")
		case "attributes":
			p.attributes(attrs, eventAttrs)
		default:
			p.skip()
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

const (
	spanAttrs  = 0
	eventAttrs = 1
)

// keep says whether an attribute is needed (the others are skipped without decoding).
func keep(k []byte, where int) bool {
	if where == eventAttrs {
		switch string(k) {
		case "exception.type", "exception.message", "lifeline.event":
			return true
		}
		return false
	}
	if bytes.HasPrefix(k, []byte("lifeline.")) {
		return true
	}
	if bytes.HasPrefix(k, []byte("gen_ai.")) {
		switch string(k) {
		case "gen_ai.system_instructions", "gen_ai.tool.definitions":
			return false
		}
		return true
	}
	if bytes.HasPrefix(k, []byte("ai.")) {
		return keepAISDK(k)
	}
	if bytes.HasPrefix(k, []byte("llm.input_messages.")) {
		// the conversation so far, for the history digest of a model call (classify keeps only
		// that): a later trace whose first model input extends it continues the conversation
		return bytes.HasSuffix(k, []byte(".message.role")) || bytes.HasSuffix(k, []byte(".message.content")) || bytes.HasSuffix(k, []byte(".message_content.text"))
	}
	if bytes.HasPrefix(k, []byte("llm.output_messages.")) {
		// the requested tool calls, and the text (a smolagents CodeAgent's code action is a
		// <code> block in it: classify keeps only that fact)
		return bytes.Contains(k, []byte(".tool_calls.")) || bytes.HasSuffix(k, []byte(".message_content.text")) || bytes.HasSuffix(k, []byte(".message.content"))
	}
	switch string(k) {
	case "openinference.span.kind", "session.id", "agent.name", "graph.node.id", "llm.model_name", "llm.token_count.prompt",
		"llm.token_count.completion", "llm.token_count.prompt_details.cache_read", "llm.finish_reason", "tool.name", "tool.id",
		"tool_call.id", "langfuse.observation.type", "langfuse.session.id", "error.type", "smolagents.max_steps",
		"input.value", "output.value": // OpenInference payloads
		return true
	}
	return false
}

// attributes reads a KeyValue list into m (only the kept keys).
func (p *parser) attributes(m map[string]any, where int) {
	var keyBuf []byte
	p.array("attributes", func() {
		var key []byte
		var pending jsontext.Value
		have := false
		p.object("attribute", func(n string) {
			switch n {
			case "key":
				if p.d.PeekKind() != '"' {
					p.skip()
					return
				}
				v, err := p.d.ReadValue()
				if err != nil {
					panic(err)
				}
				if raw := v[1 : len(v)-1]; bytes.IndexByte(raw, '\\') < 0 {
					keyBuf = append(keyBuf[:0], raw...)
					key = keyBuf
				} else {
					var s string
					if json.Unmarshal(v, &s) == nil {
						key = []byte(s)
					}
				}
			case "value":
				if key != nil {
					if keep(key, where) {
						m[string(key)] = p.anyValue()
						have = true
					} else {
						p.skip()
					}
					return
				}
				v, err := p.d.ReadValue()
				if err != nil {
					panic(err)
				}
				pending = v.Clone()
			default:
				p.skip()
			}
		})
		if !have && pending != nil && key != nil && keep(key, where) {
			sub := parser{out: p.out, rec: spantree.Record{Data: pending, Line: p.line()}}
			sub.d = jsontext.NewDecoder(bytes.NewReader(pending), jsontext.AllowInvalidUTF8(true))
			m[string(key)] = sub.anyValue()
		}
	})
}

// anyValue reads an OTLP AnyValue into a Go value.
func (p *parser) anyValue() any {
	var out any
	if p.d.PeekKind() != '{' {
		p.skip()
		return nil
	}
	p.object("value", func(n string) {
		switch n {
		case "stringValue", "string_value":
			out = p.str(n)
		case "boolValue", "bool_value":
			switch p.d.PeekKind() {
			case 't', 'f':
				out = p.tok().Bool()
			case '"':
				out = p.tok().String() == "true"
			default:
				p.skip()
			}
		case "intValue", "int_value":
			switch p.d.PeekKind() {
			case '0':
				out = p.tok().Int()
			case '"':
				n, _ := strconv.ParseInt(p.tok().String(), 10, 64)
				out = n
			default:
				p.skip()
			}
		case "doubleValue", "double_value":
			switch p.d.PeekKind() {
			case '0':
				out = p.tok().Float()
			case '"':
				f, _ := strconv.ParseFloat(p.tok().String(), 64)
				out = f
			default:
				p.skip()
			}
		case "arrayValue", "array_value":
			var list []any
			p.object(n, func(n string) {
				if n != "values" {
					p.skip()
					return
				}
				p.array("values", func() { list = append(list, p.anyValue()) })
			})
			if list == nil {
				list = []any{}
			}
			out = list
		case "kvlistValue", "kvlist_value":
			m := map[string]any{}
			p.object(n, func(n string) {
				if n != "values" {
					p.skip()
					return
				}
				p.array("values", func() {
					var k string
					var v any
					p.object("kv", func(n string) {
						switch n {
						case "key":
							k = p.str("key")
						case "value":
							v = p.anyValue()
						default:
							p.skip()
						}
					})
					m[k] = v
				})
			})
			out = m
		case "bytesValue", "bytes_value":
			out = p.str(n)
		default:
			p.skip()
		}
	})
	return out
}
