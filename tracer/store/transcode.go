package store

import (
	"math"
	"strconv"
	"unicode/utf8"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protowire"
)

// SpanCheck says why a span cannot be kept ("" to keep it), from its ids.
type SpanCheck func(traceID, spanID, parentSpanID []byte) string

// Transcoded is what TranscodeJSON made of a protobuf ExportTraceServiceRequest.
type Transcoded struct {
	// Line is the journal line (AppendJSON's, without the newline) of the spans kept.
	Line []byte
	// Spans and Rejected count the spans kept and those check refused; FirstName and FirstWhy
	// are the name of the first refused span and check's reason.
	Spans, Rejected     int
	FirstName, FirstWhy string
}

// TranscodeJSON writes a protobuf ExportTraceServiceRequest straight as its journal line,
// without decoding it into messages first: what proto.Unmarshal, dropping the spans check
// refuses, and AppendJSON together write, field for field (protojson reads both back equal;
// only the order of the keys may differ), at a fraction of the cost and allocations. ok is
// false for anything it does not take as the common case — a body proto.Unmarshal would
// refuse, a field on the wire twice where it is not repeated (proto merges those), a repeated
// field not in one run, a field with an unexpected wire type, nesting deeper than 64 — and the
// caller then takes the general path (proto.Unmarshal, then AppendJSON), which answers for those.
func TranscodeJSON(dst, body []byte, check SpanCheck) (t Transcoded, ok bool) {
	x := transcoder{e: jsonEnc{b: dst}, check: check}
	x.e.open()
	if !x.message(body, msgRequest, 0) {
		return Transcoded{}, false
	}
	x.e.b = append(x.e.b, '}')
	t = x.t
	t.Line = x.e.b
	return t, true
}

type transcoder struct {
	e     jsonEnc
	check SpanCheck
	t     Transcoded
}

// message kinds
const (
	msgRequest = iota
	msgResourceSpans
	msgResource
	msgEntityRef
	msgKeyValue
	msgAnyValue
	msgArrayValue
	msgKVList
	msgScopeSpans
	msgScope
	msgSpan
	msgEvent
	msgLink
	msgStatus
)

// field kinds
const (
	fString = iota
	fBytes
	fUint32  // varint, written as a number
	fInt32   // varint, written as a number
	fEnum    // varint, written by name
	fFixed32 // written as a number
	fFixed64 // written as a decimal string
	fMsg
	// AnyValue's oneof members, written even at their zero value
	oString
	oBool
	oInt64
	oDouble
	oBytes
	oInt32
	oMsg
)

type field struct {
	name     string
	kind     int
	repeated bool
	msg      int              // for fMsg, oMsg
	enum     map[int32]string // for fEnum
}

// otlpSchema: the fields of each OTLP trace message by number (the proto files of
// go.opentelemetry.io/proto/otlp; TestTranscodeJSON fills every field of every message).
var otlpSchema = [...]map[protowire.Number]field{
	msgRequest:       {1: {name: "resourceSpans", kind: fMsg, repeated: true, msg: msgResourceSpans}},
	msgResourceSpans: {1: {name: "resource", kind: fMsg, msg: msgResource}, 2: {name: "scopeSpans", kind: fMsg, repeated: true, msg: msgScopeSpans}, 3: {name: "schemaUrl", kind: fString}},
	msgResource: {1: {name: "attributes", kind: fMsg, repeated: true, msg: msgKeyValue}, 2: {name: "droppedAttributesCount", kind: fUint32},
		3: {name: "entityRefs", kind: fMsg, repeated: true, msg: msgEntityRef}},
	msgEntityRef: {1: {name: "schemaUrl", kind: fString}, 2: {name: "type", kind: fString}, 3: {name: "idKeys", kind: fString, repeated: true},
		4: {name: "descriptionKeys", kind: fString, repeated: true}},
	msgKeyValue: {1: {name: "key", kind: fString}, 2: {name: "value", kind: fMsg, msg: msgAnyValue}, 3: {name: "keyStrindex", kind: fInt32}},
	msgAnyValue: {1: {name: "stringValue", kind: oString}, 2: {name: "boolValue", kind: oBool}, 3: {name: "intValue", kind: oInt64},
		4: {name: "doubleValue", kind: oDouble}, 5: {name: "arrayValue", kind: oMsg, msg: msgArrayValue},
		6: {name: "kvlistValue", kind: oMsg, msg: msgKVList}, 7: {name: "bytesValue", kind: oBytes}, 8: {name: "stringValueStrindex", kind: oInt32}},
	msgArrayValue: {1: {name: "values", kind: fMsg, repeated: true, msg: msgAnyValue}},
	msgKVList:     {1: {name: "values", kind: fMsg, repeated: true, msg: msgKeyValue}},
	msgScopeSpans: {1: {name: "scope", kind: fMsg, msg: msgScope}, 2: {name: "spans", kind: fMsg, repeated: true, msg: msgSpan}, 3: {name: "schemaUrl", kind: fString}},
	msgScope: {1: {name: "name", kind: fString}, 2: {name: "version", kind: fString}, 3: {name: "attributes", kind: fMsg, repeated: true, msg: msgKeyValue},
		4: {name: "droppedAttributesCount", kind: fUint32}},
	msgSpan: {1: {name: "traceId", kind: fBytes}, 2: {name: "spanId", kind: fBytes}, 3: {name: "traceState", kind: fString},
		4: {name: "parentSpanId", kind: fBytes}, 16: {name: "flags", kind: fFixed32}, 5: {name: "name", kind: fString},
		6: {name: "kind", kind: fEnum, enum: tracepb.Span_SpanKind_name}, 7: {name: "startTimeUnixNano", kind: fFixed64},
		8: {name: "endTimeUnixNano", kind: fFixed64}, 9: {name: "attributes", kind: fMsg, repeated: true, msg: msgKeyValue},
		10: {name: "droppedAttributesCount", kind: fUint32}, 11: {name: "events", kind: fMsg, repeated: true, msg: msgEvent},
		12: {name: "droppedEventsCount", kind: fUint32}, 13: {name: "links", kind: fMsg, repeated: true, msg: msgLink},
		14: {name: "droppedLinksCount", kind: fUint32}, 15: {name: "status", kind: fMsg, msg: msgStatus}},
	msgEvent: {1: {name: "timeUnixNano", kind: fFixed64}, 2: {name: "name", kind: fString}, 3: {name: "attributes", kind: fMsg, repeated: true, msg: msgKeyValue},
		4: {name: "droppedAttributesCount", kind: fUint32}},
	msgLink: {1: {name: "traceId", kind: fBytes}, 2: {name: "spanId", kind: fBytes}, 3: {name: "traceState", kind: fString},
		4: {name: "attributes", kind: fMsg, repeated: true, msg: msgKeyValue}, 5: {name: "droppedAttributesCount", kind: fUint32},
		6: {name: "flags", kind: fFixed32}},
	msgStatus: {2: {name: "message", kind: fString}, 3: {name: "code", kind: fEnum, enum: tracepb.Status_StatusCode_name}},
}

// strBytes writes v, valid UTF-8, as a JSON string.
func (e *jsonEnc) strBytes(v []byte) {
	e.b = append(e.b, '"')
	start := 0
	for i, c := range v {
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		e.b = append(e.b, v[start:i]...)
		e.escape(c)
		start = i + 1
	}
	e.b = append(e.b, v[start:]...)
	e.b = append(e.b, '"')
}

// fieldTable is otlpSchema indexed by field number (a field with no name is none).
var fieldTable = func() (t [len(otlpSchema)][]field) {
	for kind, fields := range otlpSchema {
		for num, f := range fields {
			if int(num) >= len(t[kind]) {
				t[kind] = append(t[kind], make([]field, int(num)+1-len(t[kind]))...)
			}
			t[kind][num] = f
		}
	}
	return t
}()

func wireType(kind int) protowire.Type {
	switch kind {
	case fString, fBytes, fMsg, oString, oBytes, oMsg:
		return protowire.BytesType
	case fFixed32:
		return protowire.Fixed32Type
	case fFixed64, oDouble:
		return protowire.Fixed64Type
	}
	return protowire.VarintType
}

const maxDepth = 64

// message writes the fields of one message (its braces are the caller's). It returns false to
// leave the body to the general path.
func (x *transcoder) message(b []byte, kind, depth int) bool {
	if depth > maxDepth {
		return false
	}
	fields := fieldTable[kind]
	var seen uint32            // fields 1..31 seen (every OTLP trace field number is below 32)
	run := protowire.Number(0) // the repeated field the last element belonged to
	arrayOpen := false         // a JSON array for run is open
	oneof := false
	end := func() {
		if arrayOpen {
			x.e.b = append(x.e.b, ']')
			arrayOpen = false
		}
		run = 0
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || !num.IsValid() {
			return false
		}
		b = b[n:]
		var f field
		if int(num) < len(fields) {
			f = fields[num]
		}
		if f.name == "" { // not a field of the message: skipped, as proto keeps it unknown
			n = protowire.ConsumeFieldValue(num, typ, b)
			if n < 0 {
				return false
			}
			b = b[n:]
			continue
		}
		if typ != wireType(f.kind) || num >= 32 {
			return false
		}
		bit := uint32(1) << num
		switch {
		case f.repeated && run == num:
		case seen&bit != 0:
			return false // twice where proto keeps the last or merges, or a repeated field in two runs
		default:
			end()
			if f.repeated {
				run = num
			}
		}
		seen |= bit
		if f.kind >= oString {
			if oneof {
				return false // two members of the oneof: proto keeps the last
			}
			oneof = true
		}
		switch typ {
		case protowire.BytesType:
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return false
			}
			b = b[n:]
			if f.msg == msgSpan {
				if !x.span(v, depth+1, &arrayOpen) {
					return false
				}
				continue
			}
			switch {
			case f.repeated && arrayOpen:
				x.e.b = append(x.e.b, ',')
			case f.repeated:
				x.e.key(f.name)
				x.e.b = append(x.e.b, '[')
				arrayOpen = true
			case len(v) == 0 && (f.kind == fString || f.kind == fBytes):
				continue // a scalar at its zero value is not present
			default:
				x.e.key(f.name)
			}
			switch f.kind {
			case fString, oString:
				if !utf8.Valid(v) {
					return false
				}
				x.e.strBytes(v)
			case fBytes, oBytes:
				x.e.bytes(v)
			case fMsg, oMsg:
				x.e.open()
				if !x.message(v, f.msg, depth+1) {
					return false
				}
				x.e.close()
			}
		case protowire.VarintType:
			v, n := protowire.ConsumeVarint(b)
			if n < 0 {
				return false
			}
			b = b[n:]
			switch f.kind {
			case fUint32:
				x.e.u32Field(f.name, uint32(v))
			case fInt32:
				x.e.i32Field(f.name, int32(v))
			case oInt32:
				x.e.key(f.name)
				x.e.b = strconv.AppendInt(x.e.b, int64(int32(v)), 10)
			case fEnum:
				x.e.enumField(f.name, int32(v), f.enum)
			case oBool:
				x.e.key(f.name)
				x.e.b = strconv.AppendBool(x.e.b, v != 0)
			case oInt64:
				x.e.key(f.name)
				x.e.b = append(x.e.b, '"')
				x.e.b = strconv.AppendInt(x.e.b, int64(v), 10)
				x.e.b = append(x.e.b, '"')
			}
		case protowire.Fixed32Type:
			v, n := protowire.ConsumeFixed32(b)
			if n < 0 {
				return false
			}
			b = b[n:]
			x.e.u32Field(f.name, v)
		case protowire.Fixed64Type:
			v, n := protowire.ConsumeFixed64(b)
			if n < 0 {
				return false
			}
			b = b[n:]
			if f.kind == oDouble {
				x.e.key(f.name)
				x.e.double(math.Float64frombits(v))
			} else {
				x.e.u64Field(f.name, v)
			}
		}
	}
	end()
	return true
}

// span writes one element of ScopeSpans.spans, or leaves it out (counting it) when check
// refuses its ids; the array is opened at the first span kept.
func (x *transcoder) span(v []byte, depth int, arrayOpen *bool) bool {
	mark, first := len(x.e.b), x.e.first
	if *arrayOpen {
		x.e.b = append(x.e.b, ',')
	} else {
		x.e.key("spans")
		x.e.b = append(x.e.b, '[')
	}
	x.e.open()
	if !x.message(v, msgSpan, depth) {
		return false
	}
	x.e.close()
	if x.check != nil {
		tid, sid, pid, name := spanIDs(v)
		if why := x.check(tid, sid, pid); why != "" {
			x.e.b, x.e.first = x.e.b[:mark], first
			x.t.Rejected++
			if x.t.Rejected == 1 {
				x.t.FirstName, x.t.FirstWhy = string(name), why
			}
			return true
		}
	}
	x.t.Spans++
	*arrayOpen = true
	return true
}

// spanIDs reads a span's ids and name (the span was transcoded already: its encoding is sound).
func spanIDs(b []byte) (tid, sid, pid, name []byte) {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		b = b[n:]
		if typ != protowire.BytesType {
			b = b[protowire.ConsumeFieldValue(num, typ, b):]
			continue
		}
		v, n := protowire.ConsumeBytes(b)
		b = b[n:]
		switch num {
		case 1:
			tid = v
		case 2:
			sid = v
		case 4:
			pid = v
		case 5:
			name = v
		}
	}
	return tid, sid, pid, name
}
