package store

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// AppendJSON appends req to dst as one line of OTLP JSON in protojson's mapping — the journal's
// spans.jsonl record: lowerCamel field names, 64-bit integers as decimal strings, bytes (the
// ids) in base64, enums by name, fields at their zero value left out except a oneof's, no
// insignificant space. protojson.Unmarshal reads it back to a message equal to req
// (TestAppendJSONRoundTrip and FuzzAppendJSON check that for every field of the OTLP trace
// messages). It is what protojson.Marshal followed by json.Compact wrote before, written
// directly: at load that pair was most of a request's cost.
//
// A string that is not valid UTF-8 is an error, as it is for protojson (proto.Unmarshal
// refuses such a string already, so a decoded request never has one).
func AppendJSON(dst []byte, req *collpb.ExportTraceServiceRequest) ([]byte, error) {
	e := jsonEnc{b: dst}
	e.open()
	jsonList(&e, "resourceSpans", req.ResourceSpans, func(rs *tracepb.ResourceSpans) {
		e.resourceSpans(rs)
	})
	e.b = append(e.b, '}')
	return e.b, e.err
}

type jsonEnc struct {
	b     []byte
	first bool // no field written yet in the innermost object
	err   error
}

func (e *jsonEnc) open() {
	e.b = append(e.b, '{')
	e.first = true
}

func (e *jsonEnc) close() {
	e.b = append(e.b, '}')
	e.first = false
}

// key writes a field name (a constant: no escaping needed) and its colon.
func (e *jsonEnc) key(k string) {
	if !e.first {
		e.b = append(e.b, ',')
	}
	e.first = false
	e.b = append(e.b, '"')
	e.b = append(e.b, k...)
	e.b = append(e.b, '"', ':')
}

func (e *jsonEnc) strField(k, v string) {
	if v != "" {
		e.key(k)
		e.str(v)
	}
}

func (e *jsonEnc) u32Field(k string, v uint32) {
	if v != 0 {
		e.key(k)
		e.b = strconv.AppendUint(e.b, uint64(v), 10)
	}
}

func (e *jsonEnc) i32Field(k string, v int32) {
	if v != 0 {
		e.key(k)
		e.b = strconv.AppendInt(e.b, int64(v), 10)
	}
}

func (e *jsonEnc) u64Field(k string, v uint64) {
	if v != 0 {
		e.key(k)
		e.b = append(e.b, '"')
		e.b = strconv.AppendUint(e.b, v, 10)
		e.b = append(e.b, '"')
	}
}

func (e *jsonEnc) bytesField(k string, v []byte) {
	if len(v) > 0 {
		e.key(k)
		e.bytes(v)
	}
}

func (e *jsonEnc) bytes(v []byte) {
	e.b = append(e.b, '"')
	e.b = base64.StdEncoding.AppendEncode(e.b, v)
	e.b = append(e.b, '"')
}

func (e *jsonEnc) enumField(k string, v int32, names map[int32]string) {
	if v == 0 {
		return
	}
	e.key(k)
	if n, ok := names[v]; ok {
		e.b = append(e.b, '"')
		e.b = append(e.b, n...)
		e.b = append(e.b, '"')
		return
	}
	e.b = strconv.AppendInt(e.b, int64(v), 10)
}

func (e *jsonEnc) strList(k string, vs []string) { jsonList(e, k, vs, e.str) }

// jsonList writes the field k as the array of xs, each written by elem; nothing when xs is
// empty (protojson leaves empty repeated fields out).
func jsonList[T any](e *jsonEnc, k string, xs []T, elem func(T)) {
	if len(xs) == 0 {
		return
	}
	e.key(k)
	e.b = append(e.b, '[')
	for i, x := range xs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		elem(x)
	}
	e.b = append(e.b, ']')
}

const hexDigits = "0123456789abcdef"

// str writes s as a JSON string.
func (e *jsonEnc) str(s string) {
	e.b = append(e.b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				if e.err == nil {
					e.err = fmt.Errorf("store: a string is not valid UTF-8: %q", s)
				}
			}
			i += size
			continue
		}
		e.b = append(e.b, s[start:i]...)
		e.escape(c)
		i++
		start = i
	}
	e.b = append(e.b, s[start:]...)
	e.b = append(e.b, '"')
}

// escape writes the escape of an ASCII byte JSON strings cannot hold as it is.
func (e *jsonEnc) escape(c byte) {
	switch c {
	case '"', '\\':
		e.b = append(e.b, '\\', c)
	case '\n':
		e.b = append(e.b, '\\', 'n')
	case '\r':
		e.b = append(e.b, '\\', 'r')
	case '\t':
		e.b = append(e.b, '\\', 't')
	default:
		e.b = append(e.b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
	}
}

func (e *jsonEnc) resourceSpans(rs *tracepb.ResourceSpans) {
	e.open()
	if rs.GetResource() != nil {
		e.key("resource")
		e.resource(rs.Resource)
	}
	jsonList(e, "scopeSpans", rs.ScopeSpans, func(ss *tracepb.ScopeSpans) {
		e.scopeSpans(ss)
	})
	e.strField("schemaUrl", rs.GetSchemaUrl())
	e.close()
}

func (e *jsonEnc) resource(r *resourcepb.Resource) {
	e.open()
	e.attrs("attributes", r.GetAttributes())
	e.u32Field("droppedAttributesCount", r.GetDroppedAttributesCount())
	jsonList(e, "entityRefs", r.EntityRefs, func(er *commonpb.EntityRef) {
		e.open()
		e.strField("schemaUrl", er.GetSchemaUrl())
		e.strField("type", er.GetType())
		e.strList("idKeys", er.GetIdKeys())
		e.strList("descriptionKeys", er.GetDescriptionKeys())
		e.close()
	})
	e.close()
}

func (e *jsonEnc) scopeSpans(ss *tracepb.ScopeSpans) {
	e.open()
	if sc := ss.GetScope(); sc != nil {
		e.key("scope")
		e.open()
		e.strField("name", sc.GetName())
		e.strField("version", sc.GetVersion())
		e.attrs("attributes", sc.GetAttributes())
		e.u32Field("droppedAttributesCount", sc.GetDroppedAttributesCount())
		e.close()
	}
	jsonList(e, "spans", ss.Spans, func(sp *tracepb.Span) {
		e.span(sp)
	})
	e.strField("schemaUrl", ss.GetSchemaUrl())
	e.close()
}

func (e *jsonEnc) span(sp *tracepb.Span) {
	e.open()
	e.bytesField("traceId", sp.GetTraceId())
	e.bytesField("spanId", sp.GetSpanId())
	e.strField("traceState", sp.GetTraceState())
	e.bytesField("parentSpanId", sp.GetParentSpanId())
	e.u32Field("flags", sp.GetFlags())
	e.strField("name", sp.GetName())
	e.enumField("kind", int32(sp.GetKind()), tracepb.Span_SpanKind_name)
	e.u64Field("startTimeUnixNano", sp.GetStartTimeUnixNano())
	e.u64Field("endTimeUnixNano", sp.GetEndTimeUnixNano())
	e.attrs("attributes", sp.GetAttributes())
	e.u32Field("droppedAttributesCount", sp.GetDroppedAttributesCount())
	jsonList(e, "events", sp.Events, func(ev *tracepb.Span_Event) {
		e.open()
		e.u64Field("timeUnixNano", ev.GetTimeUnixNano())
		e.strField("name", ev.GetName())
		e.attrs("attributes", ev.GetAttributes())
		e.u32Field("droppedAttributesCount", ev.GetDroppedAttributesCount())
		e.close()
	})
	e.u32Field("droppedEventsCount", sp.GetDroppedEventsCount())
	jsonList(e, "links", sp.Links, func(l *tracepb.Span_Link) {
		e.open()
		e.bytesField("traceId", l.GetTraceId())
		e.bytesField("spanId", l.GetSpanId())
		e.strField("traceState", l.GetTraceState())
		e.attrs("attributes", l.GetAttributes())
		e.u32Field("droppedAttributesCount", l.GetDroppedAttributesCount())
		e.u32Field("flags", l.GetFlags())
		e.close()
	})
	e.u32Field("droppedLinksCount", sp.GetDroppedLinksCount())
	if st := sp.GetStatus(); st != nil {
		e.key("status")
		e.open()
		e.strField("message", st.GetMessage())
		e.enumField("code", int32(st.GetCode()), tracepb.Status_StatusCode_name)
		e.close()
	}
	e.close()
}

func (e *jsonEnc) attrs(k string, kvs []*commonpb.KeyValue) {
	if len(kvs) == 0 {
		return
	}
	e.key(k)
	e.kvList(kvs)
}

func (e *jsonEnc) kvList(kvs []*commonpb.KeyValue) {
	e.b = append(e.b, '[')
	for i, kv := range kvs {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.open()
		e.strField("key", kv.GetKey())
		if kv.GetValue() != nil {
			e.key("value")
			e.anyValue(kv.Value)
		}
		e.i32Field("keyStrindex", kv.GetKeyStrindex())
		e.close()
	}
	e.b = append(e.b, ']')
}

// anyValue writes an AnyValue: its oneof member whatever its value (a set oneof is present
// even at zero), or {} when none is set.
func (e *jsonEnc) anyValue(v *commonpb.AnyValue) {
	e.open()
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		e.key("stringValue")
		e.str(x.StringValue)
	case *commonpb.AnyValue_BoolValue:
		e.key("boolValue")
		e.b = strconv.AppendBool(e.b, x.BoolValue)
	case *commonpb.AnyValue_IntValue:
		e.key("intValue")
		e.b = append(e.b, '"')
		e.b = strconv.AppendInt(e.b, x.IntValue, 10)
		e.b = append(e.b, '"')
	case *commonpb.AnyValue_DoubleValue:
		e.key("doubleValue")
		e.double(x.DoubleValue)
	case *commonpb.AnyValue_ArrayValue:
		e.key("arrayValue")
		e.open()
		jsonList(e, "values", x.ArrayValue.GetValues(), func(av *commonpb.AnyValue) {
			e.anyValue(av)
		})
		e.close()
	case *commonpb.AnyValue_KvlistValue:
		e.key("kvlistValue")
		e.open()
		if kvs := x.KvlistValue.GetValues(); len(kvs) > 0 {
			e.key("values")
			e.kvList(kvs)
		}
		e.close()
	case *commonpb.AnyValue_BytesValue:
		e.key("bytesValue")
		e.bytes(x.BytesValue)
	case *commonpb.AnyValue_StringValueStrindex:
		e.key("stringValueStrindex")
		e.b = strconv.AppendInt(e.b, int64(x.StringValueStrindex), 10)
	}
	e.close()
}

// double writes a float64 as protojson does: NaN and the infinities as strings.
func (e *jsonEnc) double(f float64) {
	switch {
	case math.IsNaN(f):
		e.b = append(e.b, `"NaN"`...)
	case math.IsInf(f, 1):
		e.b = append(e.b, `"Infinity"`...)
	case math.IsInf(f, -1):
		e.b = append(e.b, `"-Infinity"`...)
	default:
		e.b = strconv.AppendFloat(e.b, f, 'g', -1, 64)
	}
}
