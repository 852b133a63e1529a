package store

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// fill sets every field of m (lists of one to three, every member of a oneof in turn across
// calls, strings with characters JSON must escape), recursing depth levels into messages.
func fill(r *rand.Rand, m protoreflect.Message, depth int) {
	fields := m.Descriptor().Fields()
	oneofs := m.Descriptor().Oneofs()
	for i := 0; i < oneofs.Len(); i++ {
		o := oneofs.Get(i)
		f := o.Fields().Get(r.IntN(o.Fields().Len()))
		if f.Kind() == protoreflect.MessageKind && depth <= 0 {
			f = o.Fields().Get(0) // a string member: stop recursing
		}
		setField(r, m, f, depth)
	}
	for i := 0; i < fields.Len(); i++ {
		f := fields.Get(i)
		if f.ContainingOneof() != nil {
			continue
		}
		if f.Kind() == protoreflect.MessageKind && depth <= 0 {
			continue
		}
		setField(r, m, f, depth)
	}
}

func setField(r *rand.Rand, m protoreflect.Message, f protoreflect.FieldDescriptor, depth int) {
	if f.IsList() {
		l := m.Mutable(f).List()
		for n := 1 + r.IntN(3); n > 0; n-- {
			if f.Kind() == protoreflect.MessageKind {
				e := l.NewElement()
				fill(r, e.Message(), depth-1)
				l.Append(e)
			} else {
				l.Append(scalar(r, f))
			}
		}
		return
	}
	if f.Kind() == protoreflect.MessageKind {
		sub := m.Mutable(f).Message()
		fill(r, sub, depth-1)
		return
	}
	m.Set(f, scalar(r, f))
}

var texts = []string{"a", `quote " and \ backslash`, "line\nbreak\ttab\r", "\x00\x01\x1f control", "é ü 漢字 🙂", "</script>&<>", "\u2028\u2029"}

func scalar(r *rand.Rand, f protoreflect.FieldDescriptor) protoreflect.Value {
	switch f.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(texts[r.IntN(len(texts))])
	case protoreflect.BytesKind:
		b := make([]byte, 1+r.IntN(16))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return protoreflect.ValueOfBytes(b)
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(r.IntN(2) == 0)
	case protoreflect.Int32Kind:
		return protoreflect.ValueOfInt32(int32(r.Uint32()))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return protoreflect.ValueOfUint32(r.Uint32() | 1)
	case protoreflect.Int64Kind:
		return protoreflect.ValueOfInt64([]int64{math.MinInt64, -1, 1, math.MaxInt64, int64(r.Uint64())}[r.IntN(5)])
	case protoreflect.Fixed64Kind, protoreflect.Uint64Kind:
		return protoreflect.ValueOfUint64([]uint64{1, math.MaxUint64, r.Uint64()}[r.IntN(3)])
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64([]float64{0, -0.0, 1.5, 1e300, 5e-324, -2.25e-7, 1e21, math.Inf(1), math.Inf(-1), r.NormFloat64()}[r.IntN(10)])
	case protoreflect.EnumKind:
		vals := f.Enum().Values()
		if r.IntN(4) == 0 {
			return protoreflect.ValueOfEnum(99) // not a named value: written as a number
		}
		return protoreflect.ValueOfEnum(vals.Get(r.IntN(vals.Len())).Number())
	}
	panic("kind " + f.Kind().String() + " not covered: the OTLP trace messages grew a field kind")
}

// roundTrip checks that AppendJSON writes one compact line protojson reads back to req.
func roundTrip(t testing.TB, req *collpb.ExportTraceServiceRequest) {
	t.Helper()
	line, err := AppendJSON(nil, req)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.IndexByte(line, '\n') >= 0 {
		t.Fatalf("a newline in the line: %s", line)
	}
	var c bytes.Buffer
	if err := json.Compact(&c, line); err != nil || !bytes.Equal(c.Bytes(), line) {
		t.Fatalf("not compact JSON (%v): %s", err, line)
	}
	got := &collpb.ExportTraceServiceRequest{}
	if err := (protojson.UnmarshalOptions{}).Unmarshal(line, got); err != nil {
		t.Fatalf("protojson cannot read it: %v\n%s", err, line)
	}
	if !proto.Equal(got, req) {
		want, _ := protojson.Marshal(req)
		t.Fatalf("read back differs:\nwrote %s\nwant  %s", line, want)
	}
}

// TestAppendJSONRoundTrip: requests with every field of the OTLP trace messages set (each
// oneof member of AnyValue in turn, nested arrays and kvlists, escapes, 64-bit extremes,
// non-finite doubles, unnamed enum values) and the real fixtures are read back by protojson
// as they were. A field the writer does not know fails here.
func TestAppendJSONRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		req := &collpb.ExportTraceServiceRequest{}
		fill(r, req.ProtoReflect(), 6)
		roundTrip(t, req)
	}
	// presence: a set oneof at its zero value, empty messages, no value at all
	zero := &collpb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
		ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{}, Spans: []*tracepb.Span{{
			Status: &tracepb.Status{},
			Attributes: []*commonpb.KeyValue{
				{Key: "b", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{}}},
				{Key: "i", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{}}},
				{Key: "d", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_DoubleValue{}}},
				{Key: "s", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{}}},
				{Key: "y", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_BytesValue{}}},
				{Key: "a", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_ArrayValue{ArrayValue: &commonpb.ArrayValue{}}}},
				{Key: "k", Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_KvlistValue{KvlistValue: &commonpb.KeyValueList{}}}},
				{Key: "empty", Value: &commonpb.AnyValue{}},
				{Key: "none"},
			},
		}}}},
	}}}
	roundTrip(t, zero)
	roundTrip(t, &collpb.ExportTraceServiceRequest{})
	files, _ := filepath.Glob("../../testdata/traces/otel-more/*.otlp.json")
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata/traces/otel-more")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		req := &collpb.ExportTraceServiceRequest{}
		if err := unmarshalFixture(b, req); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		roundTrip(t, req)
	}
}

// TestAppendJSONInvalidUTF8: a string protojson would refuse is refused.
func TestAppendJSONInvalidUTF8(t *testing.T) {
	req := &collpb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{SchemaUrl: "bad \xff"}}}
	if _, err := AppendJSON(nil, req); err == nil {
		t.Fatal("no error for a string that is not UTF-8")
	}
}

// FuzzAppendJSON: any protobuf request proto.Unmarshal takes is written so that protojson
// reads it back equal.
func FuzzAppendJSON(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 8; i++ {
		req := &collpb.ExportTraceServiceRequest{}
		fill(r, req.ProtoReflect(), 3)
		b, _ := proto.Marshal(req)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		req := &collpb.ExportTraceServiceRequest{}
		if proto.Unmarshal(b, req) != nil {
			return
		}
		// unknown fields are not carried (protojson drops them too)
		req.ProtoReflect().SetUnknown(nil)
		dropUnknown(req.ProtoReflect())
		roundTrip(t, req)
	})
}

func dropUnknown(m protoreflect.Message) {
	m.SetUnknown(nil)
	m.Range(func(f protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case f.IsList() && f.Kind() == protoreflect.MessageKind:
			for i := 0; i < v.List().Len(); i++ {
				dropUnknown(v.List().Get(i).Message())
			}
		case f.Kind() == protoreflect.MessageKind:
			dropUnknown(v.Message())
		}
		return true
	})
}

// unmarshalFixture reads an OTLP JSON file (hex ids) the way the receiver does.
func unmarshalFixture(b []byte, req *collpb.ExportTraceServiceRequest) error {
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	fixHex(doc)
	fixed, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(fixed, req)
}

// fixHex rewrites hex ids as base64 (what protojson reads), anywhere in the document.
func fixHex(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if s, ok := e.(string); ok && (k == "traceId" || k == "spanId" || k == "parentSpanId") {
				if b, err := hexDecode(s); err == nil {
					x[k] = b
				}
				continue
			}
			fixHex(e)
		}
	case []any:
		for _, e := range x {
			fixHex(e)
		}
	}
}

func hexDecode(s string) (string, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return "", err
	}
	return base64.StdEncoding.EncodeToString(b), nil
}

// BenchmarkAppendJSON compares the journal line writer with protojson.Marshal + json.Compact
// on a fixture request.
func BenchmarkAppendJSON(b *testing.B) {
	data, err := os.ReadFile("../../testdata/traces/otel-more/vercel-ai-v7-genai_01_tool_loop.otlp.json")
	if err != nil {
		b.Fatal(err)
	}
	req := &collpb.ExportTraceServiceRequest{}
	if err := unmarshalFixture(data, req); err != nil {
		b.Fatal(err)
	}
	b.Run("AppendJSON", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf, _ = AppendJSON(buf[:0], req)
		}
	})
	b.Run("protojson+Compact", func(b *testing.B) {
		for b.Loop() {
			line, _ := protojson.Marshal(req)
			var c bytes.Buffer
			json.Compact(&c, line)
		}
	})
}
