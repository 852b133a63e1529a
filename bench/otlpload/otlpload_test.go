package otlpload

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// TestSendCount: a load against a server that answers every third request 429 is retried
// until every span is acknowledged, each span is sent in some acknowledged request, and Count
// finds all of them — in protojson's base64 ids (lifeline's journal) and in hex (the Collector's
// file exporter) — and tells a load's spans from another seed's.
func TestSendCount(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Content-Type") != "application/x-protobuf" {
			t.Errorf("Content-Type %q", r.Header.Get("Content-Type"))
		}
		if calls.Add(1)%3 == 0 {
			w.Header().Set("Retry-After", "1")
			http.Error(w, "busy", http.StatusTooManyRequests)
			return
		}
		body, _ := io.ReadAll(r.Body)
		req := &collpb.ExportTraceServiceRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			t.Error(err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		line, _ := protojson.Marshal(req)
		mu.Lock()
		lines = append(lines, string(line))
		mu.Unlock()
		out, _ := proto.Marshal(&collpb.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	}))
	defer srv.Close()
	const n = 400
	res, err := Send(context.Background(), Config{URL: srv.URL + "/v1/traces", Spans: n, Batch: 37, Concurrency: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if res.Spans != n || res.Requests != (n+36)/37 || res.Retries == 0 {
		t.Fatalf("result %+v", res)
	}
	dir := t.TempDir()
	b64 := filepath.Join(dir, "journal.jsonl")
	if err := os.WriteFile(b64, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// the same lines with hex ids, as the Collector's file exporter writes them
	hexed := strings.Join(lines, "\n")
	for _, id := range []func(int) []byte{func(i int) []byte { return TraceID(7, i) }, SpanID} {
		for i := 0; i < n; i++ {
			hexed = strings.ReplaceAll(hexed, `"`+base64.StdEncoding.EncodeToString(id(i))+`"`, `"`+hex.EncodeToString(id(i))+`"`)
		}
	}
	hexFile := filepath.Join(dir, "collector.json")
	if err := os.WriteFile(hexFile, []byte(hexed+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{b64, hexFile} {
		got, err := Count(7, n, f)
		if err != nil {
			t.Fatal(err)
		}
		if got.Spans != n || got.Distinct != n || got.Missing != 0 || got.Foreign != 0 {
			t.Fatalf("%s: %+v", f, got)
		}
		if other, _ := Count(8, n, f); other.Foreign != n || other.Missing != n {
			t.Fatalf("%s, another seed: %+v", f, other)
		}
		// a load larger than what was sent misses the rest
		if more, _ := Count(7, n+10, f); more.Missing != 10 {
			t.Fatalf("%s, 10 more wanted: %+v", f, more)
		}
	}
	// one line lost is counted as missing spans
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, []byte(strings.Join(lines[1:], "\n")+"\n"), 0o644)
	lost, err := Count(7, n, cut)
	if err != nil {
		t.Fatal(err)
	}
	if lost.Missing == 0 || lost.Missing != n-lost.Distinct {
		t.Fatalf("a line dropped: %+v", lost)
	}
}

// TestSendFails: an answer that is neither a success nor back-pressure ends the load with it.
func TestSendFails(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "bad OTLP protobuf body", http.StatusBadRequest)
	}))
	defer srv.Close()
	_, err := Send(context.Background(), Config{URL: srv.URL, Spans: 10})
	if err == nil || !strings.Contains(err.Error(), "400") {
		t.Fatalf("err = %v", err)
	}
}

func TestTraceShape(t *testing.T) {
	g := newGenerator(1)
	req := g.request(0, SpansPerTrace)
	spans := req.ResourceSpans[0].ScopeSpans[0].Spans
	root := spans[len(spans)-1]
	if root.ParentSpanId != nil || root.Name != "invoke_agent otlpload" {
		t.Fatalf("root %v", root)
	}
	kinds := map[string]int{}
	for _, sp := range spans[:len(spans)-1] {
		if string(sp.ParentSpanId) != string(root.SpanId) || string(sp.TraceId) != string(root.TraceId) {
			t.Fatalf("span %s not a child of the root", sp.Name)
		}
		kinds[strings.Fields(sp.Name)[0]]++
	}
	if fmt.Sprint(kinds) != fmt.Sprintf("map[chat:%d execute_tool:%d]", Steps, 2*(Steps-1)) {
		t.Fatalf("kinds %v", kinds)
	}
}
