package otlp

import (
	"encoding/base64"
	"encoding/hex"
	"io"
	"math"
	"strconv"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"

	"github.com/lifeline-dev/lifeline/render/internal/jsonw"
)

// encoder writes OTLP TracesData in the OTLP JSON encoding (proto3 JSON with hex ids and
// integer enums; default values omitted).
type encoder struct {
	w   io.Writer
	buf []byte
	err error
}

func (e *encoder) flush() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

func (e *encoder) maybeFlush() {
	if len(e.buf) >= 32<<10 {
		e.flush()
	}
}

func (e *encoder) raw(s string) { e.buf = append(e.buf, s...) }

func (e *encoder) str(s string) {
	e.buf = jsonw.AppendString(e.buf, s, jsonw.Minimal)
}

func (e *encoder) hexID(b []byte) {
	e.buf = append(e.buf, '"')
	e.buf = hex.AppendEncode(e.buf, b)
	e.buf = append(e.buf, '"')
}

func (e *encoder) u64(v uint64) {
	e.buf = append(e.buf, '"')
	e.buf = strconv.AppendUint(e.buf, v, 10)
	e.buf = append(e.buf, '"')
}

func (e *encoder) tracesData(rss []*tracepb.ResourceSpans) {
	e.raw(`{"resourceSpans":[`)
	for i, rs := range rss {
		if i > 0 {
			e.raw(",")
		}
		e.raw(`{"resource":{"attributes":`)
		e.attributes(rs.GetResource().GetAttributes())
		e.raw(`},"scopeSpans":[`)
		for j, ss := range rs.ScopeSpans {
			if j > 0 {
				e.raw(",")
			}
			e.raw(`{"scope":{"name":`)
			e.str(ss.GetScope().GetName())
			if v := ss.GetScope().GetVersion(); v != "" {
				e.raw(`,"version":`)
				e.str(v)
			}
			e.raw(`},"spans":[`)
			for k, sp := range ss.Spans {
				if k > 0 {
					e.raw(",")
				}
				e.span(sp)
				e.maybeFlush()
			}
			e.raw("]")
			if ss.SchemaUrl != "" {
				e.raw(`,"schemaUrl":`)
				e.str(ss.SchemaUrl)
			}
			e.raw("}")
		}
		e.raw("]}")
	}
	e.raw("]}")
}

func (e *encoder) span(sp *tracepb.Span) {
	e.raw(`{"traceId":`)
	e.hexID(sp.TraceId)
	e.raw(`,"spanId":`)
	e.hexID(sp.SpanId)
	if len(sp.ParentSpanId) > 0 {
		e.raw(`,"parentSpanId":`)
		e.hexID(sp.ParentSpanId)
	}
	e.raw(`,"name":`)
	e.str(sp.Name)
	if sp.Kind != 0 {
		e.raw(`,"kind":`)
		e.buf = strconv.AppendInt(e.buf, int64(sp.Kind), 10)
	}
	if sp.StartTimeUnixNano != 0 {
		e.raw(`,"startTimeUnixNano":`)
		e.u64(sp.StartTimeUnixNano)
	}
	if sp.EndTimeUnixNano != 0 {
		e.raw(`,"endTimeUnixNano":`)
		e.u64(sp.EndTimeUnixNano)
	}
	if len(sp.Attributes) > 0 {
		e.raw(`,"attributes":`)
		e.attributes(sp.Attributes)
	}
	if len(sp.Events) > 0 {
		e.raw(`,"events":[`)
		for i, ev := range sp.Events {
			if i > 0 {
				e.raw(",")
			}
			e.raw("{")
			if ev.TimeUnixNano != 0 {
				e.raw(`"timeUnixNano":`)
				e.u64(ev.TimeUnixNano)
				e.raw(",")
			}
			e.raw(`"name":`)
			e.str(ev.Name)
			if len(ev.Attributes) > 0 {
				e.raw(`,"attributes":`)
				e.attributes(ev.Attributes)
			}
			e.raw("}")
		}
		e.raw("]")
	}
	if len(sp.Links) > 0 {
		e.raw(`,"links":[`)
		for i, l := range sp.Links {
			if i > 0 {
				e.raw(",")
			}
			e.raw(`{"traceId":`)
			e.hexID(l.TraceId)
			e.raw(`,"spanId":`)
			e.hexID(l.SpanId)
			if len(l.Attributes) > 0 {
				e.raw(`,"attributes":`)
				e.attributes(l.Attributes)
			}
			e.raw("}")
		}
		e.raw("]")
	}
	if st := sp.Status; st != nil && (st.Code != 0 || st.Message != "") {
		e.raw(`,"status":{`)
		if st.Message != "" {
			e.raw(`"message":`)
			e.str(st.Message)
		}
		if st.Code != 0 {
			if st.Message != "" {
				e.raw(",")
			}
			e.raw(`"code":`)
			e.buf = strconv.AppendInt(e.buf, int64(st.Code), 10)
		}
		e.raw("}")
	}
	e.raw("}")
}

func (e *encoder) attributes(kvs []*commonpb.KeyValue) {
	e.raw("[")
	for i, kv := range kvs {
		if i > 0 {
			e.raw(",")
		}
		e.raw(`{"key":`)
		e.str(kv.Key)
		e.raw(`,"value":`)
		e.value(kv.Value)
		e.raw("}")
	}
	e.raw("]")
}

func (e *encoder) value(v *commonpb.AnyValue) {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		e.raw(`{"stringValue":`)
		e.str(x.StringValue)
	case *commonpb.AnyValue_IntValue:
		e.raw(`{"intValue":"`)
		e.buf = strconv.AppendInt(e.buf, x.IntValue, 10)
		e.raw(`"`)
	case *commonpb.AnyValue_DoubleValue:
		e.raw(`{"doubleValue":`)
		f := x.DoubleValue
		switch {
		case math.IsNaN(f):
			e.raw(`"NaN"`)
		case math.IsInf(f, 1):
			e.raw(`"Infinity"`)
		case math.IsInf(f, -1):
			e.raw(`"-Infinity"`)
		default:
			e.buf = strconv.AppendFloat(e.buf, f, 'g', -1, 64)
		}
	case *commonpb.AnyValue_BoolValue:
		e.raw(`{"boolValue":`)
		e.buf = strconv.AppendBool(e.buf, x.BoolValue)
	case *commonpb.AnyValue_ArrayValue:
		e.raw(`{"arrayValue":{"values":[`)
		for i, a := range x.ArrayValue.GetValues() {
			if i > 0 {
				e.raw(",")
			}
			e.value(a)
		}
		e.raw("]}")
	case *commonpb.AnyValue_KvlistValue:
		e.raw(`{"kvlistValue":{"values":`)
		e.attributes(x.KvlistValue.GetValues())
		e.raw("}")
	case *commonpb.AnyValue_BytesValue:
		e.raw(`{"bytesValue":"`)
		e.buf = base64.StdEncoding.AppendEncode(e.buf, x.BytesValue)
		e.raw(`"`)
	default:
		e.raw("{")
	}
	e.raw("}")
}
