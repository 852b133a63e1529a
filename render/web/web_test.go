package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/lifeline-dev/lifeline/model/runindex"
	"github.com/lifeline-dev/lifeline/tracer/receiver"
	"github.com/lifeline-dev/lifeline/tracer/store"
)

const fixtures = "../../testdata/traces/otel-more/"

func newServer(t *testing.T, token string, clock func() time.Time) (*httptest.Server, *store.Store) {
	t.Helper()
	st, err := store.Open(t.TempDir(), store.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	h, stop := Handler(st, receiver.New(st), token)
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		stop()
		srv.Close()
		st.Close()
	})
	return srv, st
}

func postFixture(t *testing.T, url, name string) {
	t.Helper()
	f, err := os.Open(fixtures + name + ".otlp.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	resp, err := http.Post(url+receiver.TracesPath, "application/json", f)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("%s: %s %s", name, resp.Status, b)
	}
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func wait(t *testing.T, st *store.Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := st.Wait(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestListStreamMetrics: a run page subscribed to the stream hears the change when its spans
// arrive; the list, its filters, the timeline page and /metrics show the runs.
func TestListStreamMetrics(t *testing.T) {
	srv, st := newServer(t, "", nil)

	// the list stream: opened before any span, it announces the first run
	resp, err := http.Get(srv.URL + StreamPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("stream content type %q", ct)
	}
	events := bufio.NewReader(resp.Body)
	if line, _ := events.ReadString('\n'); !strings.HasPrefix(line, ":") {
		t.Fatalf("stream opened with %q", line)
	}
	postFixture(t, srv.URL, "vercel-ai-v7-genai_01_tool_loop")
	ev := readEvent(t, events)
	if !strings.Contains(ev, "event: change") || !strings.Contains(ev, "data: 1") {
		t.Fatalf("stream event %q, want a change with 1 run", ev)
	}
	postFixture(t, srv.URL, "vercel-ai-v7-genai_03_step_limit")
	wait(t, st)

	var rows []runindex.Row
	_, body := get(t, srv.URL+RunsAPI)
	if err := json.Unmarshal([]byte(body), &rows); err != nil || len(rows) != 2 {
		t.Fatalf("runs: %v %s", err, body)
	}
	_, body = get(t, srv.URL+RunsAPI+"?stop_reason=max_steps")
	if err := json.Unmarshal([]byte(body), &rows); err != nil || len(rows) != 1 || rows[0].StopReason != "max_steps" {
		t.Fatalf("filtered runs: %v %s", err, body)
	}
	maxSteps := rows[0].RunID
	_, body = get(t, srv.URL+RunsAPI+"?q="+maxSteps[:8])
	if err := json.Unmarshal([]byte(body), &rows); err != nil || len(rows) != 1 || rows[0].RunID != maxSteps {
		t.Fatalf("search: %v %s", err, body)
	}

	code, page := get(t, srv.URL+"/?status=failed")
	if code != 200 || !strings.Contains(page, maxSteps) || strings.Count(page, `<tr data-run=`) != 1 {
		t.Fatalf("list page (%d) lacks the failed run or shows others:\n%s", code, page)
	}
	code, page = get(t, srv.URL+RunPage+"?id="+maxSteps)
	if code != 200 || !strings.Contains(page, `<iframe`) {
		t.Fatalf("run page %d", code)
	}
	code, page = get(t, srv.URL+TimeLine+"?id="+maxSteps)
	if code != 200 || !strings.Contains(page, `id="lifeline-data"`) || !strings.Contains(page, maxSteps) {
		t.Fatalf("timeline page %d: not the html timeline of the run", code)
	}
	if code, _ := get(t, srv.URL+TimeLine+"?id=nope"); code != 404 {
		t.Fatalf("unknown run: %d", code)
	}

	_, m := get(t, srv.URL+Metrics)
	for _, want := range []string{
		"# TYPE lifeline_runs gauge\n",
		`lifeline_runs{status="failed",stop_reason="max_steps"} 1` + "\n",
		`lifeline_runs{status="completed",stop_reason="goal_reached"} 1` + "\n",
		"lifeline_spans_received_total " + itoa(st.Counters().Spans) + "\n",
		"lifeline_spans_rejected_total 0\n",
		"lifeline_ingest_lag_seconds 0\n",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %q:\n%s", want, m)
		}
	}
}

// TestRunStream: a run's stream speaks only when that run changes: another run arriving is
// silence, the run's missing tool span arriving is a change.
func TestRunStream(t *testing.T) {
	srv, st := newServer(t, "", nil)
	all, late := heldToolSpan(t)
	postProto(t, srv.URL, all)
	wait(t, st)
	rows, _ := st.Runs(runindex.Query{})
	run := rows[0]
	if run.ToolCalls != 2 {
		t.Fatalf("without the held span: %+v", run)
	}
	resp, err := http.Get(srv.URL + StreamPath + "?run=" + run.RunID)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	events := bufio.NewReader(resp.Body)
	events.ReadString('\n')
	postFixture(t, srv.URL, "vercel-ai-v7-genai_03_step_limit")
	wait(t, st)
	postProto(t, srv.URL, late)
	ev := readEvent(t, events)
	var row runindex.Row
	data := ev[strings.Index(ev, "data: ")+6:]
	if err := json.Unmarshal([]byte(strings.TrimSpace(data)), &row); err != nil {
		t.Fatalf("event %q: %v", ev, err)
	}
	if row.RunID != run.RunID || row.ToolCalls != 3 {
		t.Fatalf("first event for the run is %q: want the run with its 3 tool calls (another run's arrival must not speak)", ev)
	}
}

func postProto(t *testing.T, url string, req *collpb.ExportTraceServiceRequest) {
	t.Helper()
	b, err := proto.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url+receiver.TracesPath, "application/x-protobuf", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || len(out) != 0 {
		t.Fatalf("%s %q", resp.Status, out)
	}
}

func readEvent(t *testing.T, r *bufio.Reader) string {
	t.Helper()
	var b strings.Builder
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("stream ended: %v (read %q)", err, b.String())
		}
		if line == "\n" {
			if b.Len() == 0 {
				continue
			}
			return b.String()
		}
		if strings.HasPrefix(line, ":") {
			continue
		}
		b.WriteString(line)
	}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }

// TestToken: with a token, requests without it are refused; with it (header, or the ?token=
// link that sets a cookie) they pass.
func TestToken(t *testing.T) {
	srv, _ := newServer(t, "s3cret", nil)
	if code, _ := get(t, srv.URL+RunsAPI); code != http.StatusUnauthorized {
		t.Fatalf("no token: %d", code)
	}
	req, _ := http.NewRequest("GET", srv.URL+RunsAPI, nil)
	req.Header.Set("Authorization", "Bearer s3cret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("bearer: %d", resp.StatusCode)
	}
	req, _ = http.NewRequest("GET", srv.URL+RunsAPI, nil)
	req.Header.Set("Authorization", "Bearer wrong")
	resp, _ = http.DefaultClient.Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("wrong bearer: %d", resp.StatusCode)
	}
}

func TestCheckAddr(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		ok          bool
	}{
		{"127.0.0.1:4318", "", true},
		{"[::1]:4318", "", true},
		{"localhost:4318", "", true},
		{"0.0.0.0:4318", "", false},
		{":4318", "", false},
		{"10.1.2.3:4318", "", false},
		{"0.0.0.0:4318", "t", true},
		{"nonsense", "", false},
	} {
		if err := CheckAddr(c.addr, c.token); (err == nil) != c.ok {
			t.Errorf("CheckAddr(%q, %q) = %v, want ok=%v", c.addr, c.token, err, c.ok)
		}
	}
}

// TestMetricsText checks the exposition format byte for byte, label escaping included.
func TestMetricsText(t *testing.T) {
	var b strings.Builder
	writeMetrics(&b, []runindex.StatusCount{{Status: "failed", StopReason: `we"ird\`, Runs: 2}}, map[string]int{"L5": 3, "L2": 1}, runindex.Counters{Spans: 10, Rejected: 2, Lag: 1500 * time.Millisecond})
	want := `# HELP lifeline_runs Runs in the store by status and stop reason.
# TYPE lifeline_runs gauge
lifeline_runs{status="failed",stop_reason="we\"ird\\"} 2
# HELP lifeline_findings Invariant findings (errors and warnings) in the store by invariant.
# TYPE lifeline_findings gauge
lifeline_findings{invariant="L2"} 1
lifeline_findings{invariant="L5"} 3
# HELP lifeline_spans_received_total OTLP spans in the store's journal (acknowledged).
# TYPE lifeline_spans_received_total counter
lifeline_spans_received_total 10
# HELP lifeline_events_received_total Canonical events in the store's journal (acknowledged).
# TYPE lifeline_events_received_total counter
lifeline_events_received_total 0
# HELP lifeline_spans_rejected_total OTLP spans rejected (partial success) since the server started.
# TYPE lifeline_spans_rejected_total counter
lifeline_spans_rejected_total 2
# HELP lifeline_ingest_lag_seconds How long the oldest acknowledged batch not yet in the index has waited.
# TYPE lifeline_ingest_lag_seconds gauge
lifeline_ingest_lag_seconds 1.5
`
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// heldToolSpan splits the vercel-ai tool-loop fixture into the request without its
// get_exchange_rate tool span and the request holding only that span, to send later.
func heldToolSpan(t *testing.T) (all, late *collpb.ExportTraceServiceRequest) {
	t.Helper()
	body, err := os.ReadFile(fixtures + "vercel-ai-v7-genai_01_tool_loop.otlp.json")
	if err != nil {
		t.Fatal(err)
	}
	all = &collpb.ExportTraceServiceRequest{}
	if err := receiver.UnmarshalJSON(body, all); err != nil {
		t.Fatal(err)
	}
	late = proto.Clone(all).(*collpb.ExportTraceServiceRequest)
	ss := all.ResourceSpans[0].ScopeSpans[0]
	var kept, held []*tracepb.Span
	for _, sp := range ss.Spans {
		if sp.Name == "execute_tool get_exchange_rate" {
			held = append(held, sp)
		} else {
			kept = append(kept, sp)
		}
	}
	if len(held) != 1 {
		t.Fatal("fixture changed: no get_exchange_rate span")
	}
	ss.Spans = kept
	late.ResourceSpans[0].ScopeSpans[0].Spans = held
	return all, late
}
