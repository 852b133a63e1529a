package store

import (
	"fmt"
	"math/rand/v2"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// refuseLow refuses the spans whose span id is missing or starts below 0x40 (a stand-in for
// the receiver's id checks that refuses about a quarter of random spans).
func refuseLow(tid, sid, pid []byte) string {
	if len(sid) == 0 || sid[0] < 0x40 {
		return fmt.Sprintf("span_id %x", sid)
	}
	return ""
}

// reference is the general path: proto.Unmarshal, the refused spans dropped, AppendJSON.
func reference(t testing.TB, body []byte, check SpanCheck) (*collpb.ExportTraceServiceRequest, int, int, error) {
	req := &collpb.ExportTraceServiceRequest{}
	if err := proto.Unmarshal(body, req); err != nil {
		return nil, 0, 0, err
	}
	dropUnknown(req.ProtoReflect())
	kept, refused := 0, 0
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			out := ss.Spans[:0]
			for _, sp := range ss.Spans {
				if check != nil && check(sp.TraceId, sp.SpanId, sp.ParentSpanId) != "" {
					refused++
					continue
				}
				kept++
				out = append(out, sp)
			}
			ss.Spans = out
		}
	}
	return req, kept, refused, nil
}

// same checks that TranscodeJSON, when it takes body, writes what the general path means.
func same(t testing.TB, body []byte, check SpanCheck) bool {
	t.Helper()
	got, ok := TranscodeJSON(nil, body, check)
	want, kept, refused, err := reference(t, body, check)
	if err != nil {
		if ok {
			t.Fatalf("transcoded a body proto.Unmarshal refuses (%v): %s", err, got.Line)
		}
		return false
	}
	if !ok {
		return false
	}
	back := &collpb.ExportTraceServiceRequest{}
	if err := protojson.Unmarshal(got.Line, back); err != nil {
		t.Fatalf("protojson cannot read the line: %v\n%s", err, got.Line)
	}
	if !proto.Equal(back, want) {
		line, _ := AppendJSON(nil, want)
		t.Fatalf("transcoded:\n%s\nwant (AppendJSON):\n%s", got.Line, line)
	}
	if got.Spans != kept || got.Rejected != refused {
		t.Fatalf("counted %d kept, %d refused; want %d, %d", got.Spans, got.Rejected, kept, refused)
	}
	return true
}

// TestTranscodeJSON: on requests with every field of every OTLP trace message set (as
// TestAppendJSONRoundTrip fills them), with and without refused spans, the transcoder writes
// what proto.Unmarshal + AppendJSON mean, and takes every request the Go encoder writes.
func TestTranscodeJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 300; i++ {
		req := &collpb.ExportTraceServiceRequest{}
		fill(r, req.ProtoReflect(), 6)
		body, err := proto.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, check := range []SpanCheck{nil, refuseLow} {
			if !same(t, body, check) {
				t.Fatalf("request %d: the transcoder refused what the Go encoder wrote", i)
			}
		}
	}
}

// TestTranscodeJSONFallsBack: the encodings proto reads by rules a one-pass writer cannot
// follow go to the general path.
func TestTranscodeJSONFallsBack(t *testing.T) {
	span := func(name string) []byte {
		b, _ := proto.Marshal(&tracepb.Span{TraceId: make([]byte, 16), SpanId: []byte{0x50, 1, 2, 3, 4, 5, 6, 7}, Name: name})
		return b
	}
	scope := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	field := func(num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), v)
	}
	request := func(ss []byte) []byte {
		return field(1, field(2, ss))
	}
	cases := map[string][]byte{
		"name twice":              request(field(2, scope(span("a"), field(5, []byte("b"))))),
		"spans in two runs":       request(scope(field(2, span("a")), field(3, []byte("s")), field(2, span("b")))),
		"bad UTF-8":               request(field(2, span("\xff"))),
		"truncated":               request(field(2, span("a")))[:9],
		"a varint where a string": request(field(2, protowire.AppendVarint(protowire.AppendTag(nil, 5, protowire.VarintType), 1))),
	}
	for name, body := range cases {
		t.Run(name, func(t *testing.T) {
			if same(t, body, nil) {
				t.Fatalf("transcoded")
			}
		})
	}
	// in one run after another field, refused or not: taken
	ok := request(scope(field(3, []byte("s")), field(2, span("a")), field(2, span("b"))))
	if !same(t, ok, refuseLow) || !same(t, ok, func(a, b, c []byte) string { return "no" }) {
		t.Fatal("a well-formed request left to the general path")
	}
}

// FuzzTranscodeJSON: whatever the body, the transcoder either leaves it to the general path
// or writes what that path means (and never takes a body proto.Unmarshal refuses).
func FuzzTranscodeJSON(f *testing.F) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 8; i++ {
		req := &collpb.ExportTraceServiceRequest{}
		fill(r, req.ProtoReflect(), 3)
		b, _ := proto.Marshal(req)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		same(t, body, refuseLow)
	})
}

func BenchmarkTranscodeJSON(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	req := &collpb.ExportTraceServiceRequest{}
	fill(r, req.ProtoReflect(), 4)
	body, _ := proto.Marshal(req)
	b.Run("transcode", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			t, _ := TranscodeJSON(buf[:0], body, refuseLow)
			buf = t.Line
		}
	})
	b.Run("Unmarshal+AppendJSON", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			req := &collpb.ExportTraceServiceRequest{}
			proto.Unmarshal(body, req)
			buf, _ = AppendJSON(buf[:0], req)
		}
	})
}
