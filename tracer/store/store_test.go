package store_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/lifeline-dev/lifeline/tracer/receiver"
	"github.com/lifeline-dev/lifeline/tracer/store"
)

// fixture is a real OTLP/HTTP JSON body (the AI SDK 7 exporter's, see testdata/traces) and
// what its generator observed.
const fixtureDir = "../../testdata/traces/otel-more/"

type expected struct {
	Runs       int `json:"runs"`
	Steps      int `json:"steps"`
	ToolCalls  int `json:"tool_calls"`
	RunsDetail []struct {
		Status     string `json:"status"`
		StopReason string `json:"stop_reason"`
	} `json:"runs_detail"`
}

func readFixture(t *testing.T, name string) ([]byte, expected) {
	t.Helper()
	body, err := os.ReadFile(fixtureDir + name + ".otlp.json")
	if err != nil {
		t.Fatal(err)
	}
	var exp expected
	b, err := os.ReadFile(fixtureDir + name + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &exp); err != nil {
		t.Fatal(err)
	}
	return body, exp
}

// toProto turns an OTLP JSON body into the protobuf one an exporter would send, by way of the
// receiver's own JSON endpoint semantics (hex ids): it posts nothing, it decodes with protojson
// after mapping the hex ids, as the OTLP JSON mapping defines them.
func toProto(t *testing.T, jsonBody []byte) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(jsonBody, &doc); err != nil {
		t.Fatal(err)
	}
	req := &collpb.ExportTraceServiceRequest{}
	if err := receiver.UnmarshalJSON(jsonBody, req); err != nil {
		t.Fatal(err)
	}
	b, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func post(t *testing.T, url, ctype string, body []byte, gz bool) (*http.Response, []byte) {
	t.Helper()
	var rd io.Reader = bytes.NewReader(body)
	if gz {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(body)
		zw.Close()
		rd = &buf
	}
	req, _ := http.NewRequest(http.MethodPost, url, rd)
	req.Header.Set("Content-Type", ctype)
	if gz {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp, out
}

func serve(t *testing.T, st *store.Store) *httptest.Server {
	mux := http.NewServeMux()
	receiver.New(st).Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func waitView(t *testing.T, st *store.Store) []store.RunRow {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	return st.Rows()
}

// TestDurableAcrossCrash posts real OTLP batches in JSON, protobuf and gzip, crashes the store
// (no graceful shutdown, a torn line left behind, the index deleted) and reopens it: every
// acknowledged span is there and the runs project as the generator observed them.
func TestDurableAcrossCrash(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, st)
	names := []string{"vercel-ai-v7-genai_01_tool_loop", "vercel-ai-v7-genai_03_step_limit", "vercel-ai-v7-genai_02_stream_text"}
	acked := 0
	wantRuns := map[string]int{}
	for i, name := range names {
		body, exp := readFixture(t, name)
		var req collpb.ExportTraceServiceRequest
		if err := receiver.UnmarshalJSON(body, &req); err != nil {
			t.Fatal(err)
		}
		n := store.SpanCount(&req)
		var resp *http.Response
		var out []byte
		switch i {
		case 0:
			resp, out = post(t, srv.URL+receiver.TracesPath, "application/json", body, false)
		case 1:
			resp, out = post(t, srv.URL+receiver.TracesPath, "application/x-protobuf", toProto(t, body), true)
		case 2:
			resp, out = post(t, srv.URL+receiver.TracesPath, "application/json", body, true)
		}
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s %s", name, resp.Status, out)
		}
		acked += n
		for _, r := range exp.RunsDetail {
			wantRuns[r.Status+"/"+r.StopReason]++
		}
	}
	v := waitView(t, st)
	checkRuns(t, v, wantRuns)
	if c := st.Counters(); c.Spans != int64(acked) {
		t.Fatalf("counters: %d spans, want %d", c.Spans, acked)
	}

	st.Crash()
	// a write cut short by the crash: never acknowledged, truncated on open
	tearJournal(t, dir)

	st2, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st2.Close()
	if c := st2.Counters(); c.Spans != int64(acked) {
		t.Fatalf("after the crash: %d spans in the journal, want the %d acknowledged", c.Spans, acked)
	}
	checkRuns(t, st2.Rows(), wantRuns)
	rows, err := st2.Runs(store.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(names) {
		t.Fatalf("index rebuilt with %d runs, want %d: %+v", len(rows), len(names), rows)
	}
	rows, err = st2.Runs(store.Query{StopReason: "max_steps"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != wantRuns["completed/max_steps"]+wantRuns["failed/max_steps"] {
		t.Fatalf("stop_reason filter: %+v (want %v)", rows, wantRuns)
	}
}

func checkRuns(t *testing.T, rows []store.RunRow, want map[string]int) {
	t.Helper()
	got := map[string]int{}
	for _, r := range rows {
		got[r.Status+"/"+r.StopReason]++
	}
	if len(got) != len(want) {
		t.Fatalf("runs by status/stop reason: %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Fatalf("runs by status/stop reason: %v, want %v", got, want)
		}
	}
}

// TestSplitTrace sends one trace's spans one request each, root last, as a BatchSpanProcessor
// does: the run is the same as from one body.
func TestSplitTrace(t *testing.T) {
	st, err := store.Open(t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := serve(t, st)
	body, exp := readFixture(t, "vercel-ai-v7-genai_01_tool_loop")
	var req collpb.ExportTraceServiceRequest
	if err := receiver.UnmarshalJSON(body, &req); err != nil {
		t.Fatal(err)
	}
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, sp := range ss.Spans {
				one := proto.Clone(&req).(*collpb.ExportTraceServiceRequest)
				one.ResourceSpans = one.ResourceSpans[:1]
				one.ResourceSpans[0].ScopeSpans = one.ResourceSpans[0].ScopeSpans[:1]
				one.ResourceSpans[0].ScopeSpans[0].Spans = nil
				one.ResourceSpans[0].ScopeSpans[0].Spans = append(one.ResourceSpans[0].ScopeSpans[0].Spans, sp)
				b, _ := proto.Marshal(one)
				if resp, out := post(t, srv.URL+receiver.TracesPath, "application/x-protobuf", b, false); resp.StatusCode != 200 {
					t.Fatalf("%s %s", resp.Status, out)
				}
			}
		}
	}
	rows := waitView(t, st)
	if len(rows) != exp.Runs || rows[0].Steps != exp.Steps || rows[0].ToolCalls != exp.ToolCalls {
		t.Fatalf("runs %+v, want %d run(s) with %d steps and %d tool calls", rows, exp.Runs, exp.Steps, exp.ToolCalls)
	}
}

// TestResponses checks the answers for bad requests, partial success and back-pressure.
func TestResponses(t *testing.T) {
	st, held, release, err := store.OpenHeld(t.TempDir(), store.Options{Queue: 1})
	if err != nil {
		t.Fatal(err)
	}
	srv := serve(t, st)
	url := srv.URL + receiver.TracesPath
	body, _ := readFixture(t, "vercel-ai-v7-genai_01_tool_loop")

	cases := []struct {
		name, ctype, encoding string
		body                  string
		code                  int
		msg                   string
	}{
		{"content type", "text/xml", "", "<x/>", 415, "expected application/x-protobuf or application/json"},
		{"encoding", "application/json", "br", "{}", 415, "expected gzip or none"},
		{"bad json", "application/json", "", "{", 400, "bad OTLP JSON body"},
		{"bad proto", "application/x-protobuf", "", "\xff\xff\xff", 400, "bad OTLP protobuf body"},
		{"bad gzip", "application/json", "gzip", "not gzip", 400, "bad gzip body"},
		{"bad id", "application/json", "", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"zz!","spanId":"00"}]}]}]}`, 400, "neither hex nor base64"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", url, strings.NewReader(c.body))
			req.Header.Set("Content-Type", c.ctype)
			if c.encoding != "" {
				req.Header.Set("Content-Encoding", c.encoding)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			out, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.code || !strings.Contains(string(out), c.msg) {
				t.Fatalf("%s %s, want %d with %q", resp.Status, out, c.code, c.msg)
			}
		})
	}

	// partial success: one span with a short trace id is dropped and counted
	bad := strings.Replace(string(body), `"traceId": "3dad3806eb49101220ee79ec3abae3e2",
       "spanId": "1da90cf622eee814"`, `"traceId": "3dad",
       "spanId": "1da90cf622eee814"`, 1)
	if bad == string(body) {
		t.Fatal("fixture changed: the span to break is not there")
	}
	type result struct {
		code int
		out  []byte
		hdr  http.Header
	}
	first := make(chan result)
	go func() {
		resp, out := post(t, url, "application/json", []byte(bad), false)
		first <- result{resp.StatusCode, out, resp.Header}
	}()
	<-held // the writer holds the first batch; the queue (1) is empty
	second := make(chan result)
	go func() {
		resp, out := post(t, url, "application/x-protobuf", toProto(t, body), false)
		second <- result{resp.StatusCode, out, resp.Header}
	}()
	// the second batch fills the queue (1): a third one is refused at once
	for st.Queued() < 1 {
		time.Sleep(time.Millisecond)
	}
	resp3, out3 := post(t, url, "application/x-protobuf", toProto(t, body), false)
	third := result{resp3.StatusCode, out3, resp3.Header}
	if third.code != http.StatusTooManyRequests || third.hdr.Get("Retry-After") != "1" {
		t.Fatalf("back-pressure: %d %q %s", third.code, third.hdr.Get("Retry-After"), third.out)
	}
	release <- struct{}{}
	r1 := <-first
	if r1.code != 200 {
		t.Fatalf("partial batch: %d %s", r1.code, r1.out)
	}
	var pr collpb.ExportTraceServiceResponse
	if err := protojson.Unmarshal(r1.out, &pr); err != nil {
		t.Fatal(err)
	}
	if pr.GetPartialSuccess().GetRejectedSpans() != 1 || !strings.Contains(pr.GetPartialSuccess().GetErrorMessage(), "trace_id is 2 bytes") {
		t.Fatalf("partial success: %s", r1.out)
	}
	<-held
	release <- struct{}{}
	if r2 := <-second; r2.code != 200 || len(r2.out) != 0 {
		t.Fatalf("second batch: %d %q", r2.code, r2.out)
	}
	if c := st.Counters(); c.Rejected != 1 {
		t.Fatalf("rejected %d, want 1", c.Rejected)
	}
	close(release)
	st.Close()
	// closed: 503 with Retry-After
	resp, out := post(t, url, "application/json", body, false)
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("after close: %s %s", resp.Status, out)
	}
}

// TestCanonicalEvents posts lifeline's own event log over HTTP.
func TestCanonicalEvents(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := serve(t, st)
	log, err := os.ReadFile("../otlp/testdata/vercel-ai_04_step_limit.canonical.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Count(log, []byte("\n"))
	withBad := append(append([]byte{}, log...), []byte("{\"v\":1,\"type\":\"nope/what\"}\n")...)
	resp, out := post(t, srv.URL+receiver.EventsPath, "application/x-ndjson", withBad, false)
	var er receiver.EventsResponse
	if err := json.Unmarshal(out, &er); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%s %s", resp.Status, out)
	}
	if er.Accepted != lines || er.Rejected != 1 || !strings.Contains(er.Errors[0], "line "+itoa(lines+1)) {
		t.Fatalf("response %+v, want %d accepted, the last line rejected", er, lines)
	}
	rows := waitView(t, st)
	if len(rows) != 1 || rows[0].StopReason != "max_steps" {
		t.Fatalf("runs %+v", rows)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestRecordedPythonAgent opens a data directory that `lifeline serve` filled from a real
// exporter — scripts/serve/otel_agent.py, the OpenTelemetry Python SDK's OTLP/HTTP protobuf
// exporter, GenAI conventions — and checks each run against what the agent itself said it did
// (agent-output.json, printed by the script): steps, tool calls, session and how it ended.
func TestRecordedPythonAgent(t *testing.T) {
	const src = "../../testdata/serve/otel-python/"
	var did struct {
		Runs []struct {
			RunID                   string `json:"run_id"`
			Agent, Session, Outcome string
			Steps                   int
			ToolCalls               int      `json:"tool_calls"`
			ToolErrors              []string `json:"tool_errors"`
		}
	}
	b, err := os.ReadFile(src + "agent-output.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &did); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	journal, err := os.ReadFile(src + store.SpansFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, store.SpansFile), journal, 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ended := map[string]string{"answer": "completed/goal_reached", "max_steps": "failed/max_steps", "model_error": "failed/model_error"}
	rows := st.Rows()
	if len(rows) != len(did.Runs) {
		t.Fatalf("%d runs, the agent made %d: %+v", len(rows), len(did.Runs), rows)
	}
	for _, d := range did.Runs {
		r, _, ok := st.Run(d.RunID)
		if !ok {
			t.Fatalf("run %s of the agent is not in the store", d.RunID)
		}
		if r.Steps != d.Steps || r.ToolCalls != d.ToolCalls || r.SessionID != d.Session || r.Agent != d.Agent || r.Status+"/"+r.StopReason != ended[d.Outcome] {
			t.Errorf("run %s: %+v; the agent did %+v", d.RunID, r, d)
		}
	}
	if c := st.FindingsByCode(); len(c) != 0 {
		t.Errorf("findings on a clean agent: %v", c)
	}
}

// tearJournal appends a record a crash cut short (never acknowledged) to the journal in dir
// and removes the run index, so that opening must cut the record and rebuild the index.
func tearJournal(t *testing.T, dir string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, store.SpansFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"AAEC`)
	f.Close()
	if err := os.Remove(filepath.Join(dir, store.IndexFile)); err != nil {
		t.Fatal(err)
	}
}

// TestYieldFor: while batches are being written the projector works a quarter of the time
// (it waits three times as long as a chunk took), and not at all otherwise.
func TestYieldFor(t *testing.T) {
	for _, c := range []struct {
		worked time.Duration
		busy   bool
		want   time.Duration
	}{
		{100 * time.Millisecond, true, 300 * time.Millisecond},
		{100 * time.Millisecond, false, 0},
		{0, true, 0},
		{7 * time.Millisecond, true, 21 * time.Millisecond},
	} {
		if got := store.YieldFor(c.worked, c.busy); got != c.want {
			t.Errorf("yieldFor(%v, busy %v) = %v, want %v", c.worked, c.busy, got, c.want)
		}
	}
}
