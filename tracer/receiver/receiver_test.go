package receiver

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/lifeline-dev/lifeline/tracer/store"
)

// TestProtobufPathsAgree: a protobuf body (taken straight to its journal line by
// store.TranscodeJSON) and the same request as JSON (decoded, validated and written by the
// general path) get the same answer — partial_success with the same count and message for the
// spans whose ids are bad — and journal the same spans.
func TestProtobufPathsAgree(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/traces/otel-more/*.otlp.json")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, f := range files[:min(len(files), 6)] {
		t.Run(filepath.Base(f), func(t *testing.T) {
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			req := &collpb.ExportTraceServiceRequest{}
			if err := UnmarshalJSON(body, req); err != nil {
				t.Fatal(err)
			}
			// two spans whose ids cannot identify them
			ss := req.ResourceSpans[0].ScopeSpans[0]
			ss.Spans = append(ss.Spans,
				&tracepb.Span{TraceId: []byte{1, 2}, SpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Name: "short trace id"},
				&tracepb.Span{TraceId: make([]byte, 16), SpanId: []byte{1, 2, 3, 4, 5, 6, 7, 8}, Name: "zero trace id"})
			pb, err := proto.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := store.TranscodeJSON(nil, pb, badIDs); !ok {
				t.Fatal("the protobuf body does not take the transcoder's path")
			}
			js, err := protojson.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			var answers [2]*collpb.ExportTraceServiceResponse
			var journals [2]*collpb.ExportTraceServiceRequest
			for i, c := range []struct {
				ct   string
				body []byte
			}{{"application/x-protobuf", pb}, {"application/json", js}} {
				dir := t.TempDir()
				st, err := store.Open(dir, store.Options{})
				if err != nil {
					t.Fatal(err)
				}
				mux := http.NewServeMux()
				New(st).Register(mux)
				srv := httptest.NewServer(mux)
				resp, err := http.Post(srv.URL+TracesPath, c.ct, bytes.NewReader(c.body))
				if err != nil {
					t.Fatal(err)
				}
				out, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				srv.Close()
				st.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s: %s %s", c.ct, resp.Status, out)
				}
				answers[i] = &collpb.ExportTraceServiceResponse{}
				if c.ct == "application/json" {
					err = protojson.Unmarshal(out, answers[i])
				} else {
					err = proto.Unmarshal(out, answers[i])
				}
				if err != nil {
					t.Fatal(err)
				}
				line, err := os.ReadFile(filepath.Join(dir, store.SpansFile))
				if err != nil || bytes.Count(line, []byte("\n")) != 1 {
					t.Fatalf("%s: journal %q %v", c.ct, line, err)
				}
				journals[i] = &collpb.ExportTraceServiceRequest{}
				if err := protojson.Unmarshal(line, journals[i]); err != nil {
					t.Fatalf("%s: journal line: %v", c.ct, err)
				}
			}
			ps := answers[0].GetPartialSuccess()
			if ps.GetRejectedSpans() != 2 || !strings.Contains(ps.GetErrorMessage(), `2 spans rejected; the first: span "short trace id": trace_id is 2 bytes`) {
				t.Fatalf("protobuf answer %v", answers[0])
			}
			if !proto.Equal(answers[0], answers[1]) {
				t.Fatalf("answers differ:\nprotobuf %v\njson     %v", answers[0], answers[1])
			}
			if !proto.Equal(journals[0], journals[1]) || store.SpanCount(journals[0]) != store.SpanCount(req)-2 {
				t.Fatalf("journals differ or keep a bad span: %d and %d spans of %d", store.SpanCount(journals[0]), store.SpanCount(journals[1]), store.SpanCount(req))
			}
		})
	}
}
