package receiver

import (
	"os"
	"path/filepath"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// FuzzDecode: whatever an exporter sends, the JSON and protobuf decoders and the span
// validation return an error or a request — never a panic — and a JSON body that decodes
// round-trips through protobuf to the same span count.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/traces/otel-more/*.otlp.json")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz","spanId":"00"}]}]}]}`))
	f.Add([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"links":[{"traceId":7}]}]}]}]} {}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var req collpb.ExportTraceServiceRequest
		if err := UnmarshalJSON(body, &req); err == nil {
			validate(&req)
			b, err := proto.Marshal(&req)
			if err != nil {
				t.Fatalf("marshal a decoded request: %v", err)
			}
			var back collpb.ExportTraceServiceRequest
			if err := proto.Unmarshal(b, &back); err != nil {
				t.Fatalf("unmarshal what was marshalled: %v", err)
			}
			if n, m := spans(&req), spans(&back); n != m {
				t.Fatalf("%d spans decoded, %d after a protobuf round trip", n, m)
			}
		}
		var pb collpb.ExportTraceServiceRequest
		if proto.Unmarshal(body, &pb) == nil {
			validate(&pb)
		}
	})
}

func spans(req *collpb.ExportTraceServiceRequest) int {
	n := 0
	for _, rs := range req.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			n += len(ss.GetSpans())
		}
	}
	return n
}
