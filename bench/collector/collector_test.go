// Package collector holds lifeline's OpenTelemetry Collector proof: the Collector distribution
// (manifest.yaml, built by build.sh with the Collector builder from the Go module proxy), the
// configurations the README's recipe and bench/serve-load.sh use, and the end-to-end test
// TestCollectorToServe.
package collector

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lifeline-dev/lifeline/bench/otlpload"
)

// collectorBinary finds the Collector build.sh builds: $LIFELINE_COLLECTOR, or the binary in
// build.sh's cache directory for this manifest and builder version ("" when there is none).
func collectorBinary(t *testing.T) string {
	if p := os.Getenv("LIFELINE_COLLECTOR"); p != "" {
		return p
	}
	script, err := os.ReadFile("build.sh")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^builder_version=(\S+)$`).FindSubmatch(script)
	if m == nil {
		t.Fatal("build.sh sets no builder_version")
	}
	manifest, err := os.ReadFile("manifest.yaml")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(append([]byte(string(m[1])+"\n"), manifest...))
	cache := os.Getenv("LIFELINE_COLLECTOR_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return ""
			}
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "lifeline", "collector")
	}
	p := filepath.Join(cache, hex.EncodeToString(h[:])[:16], "otelcol-lifeline", "otelcol-lifeline")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// TestCollectorToServe is the Collector recipe end to end: two bounded loads (one over
// OTLP/HTTP, one over OTLP/gRPC) into a real Collector (otlp receiver → batch → otlp_http
// exporter with the bearer token), which forwards them to `lifeline serve --token`. Every span
// sent must be in serve's journal (by trace and span id), serve's /metrics must count them, and
// every trace must be a completed run of 3 steps and 4 tool calls in /api/runs and in `lifeline
// stats` over the data directory.
func TestCollectorToServe(t *testing.T) {
	bin := collectorBinary(t)
	if bin == "" {
		msg := "no Collector binary: run bash bench/collector/build.sh (or set LIFELINE_COLLECTOR to one)"
		if os.Getenv("LIFELINE_REQUIRE_COLLECTOR") == "1" {
			t.Fatal(msg + "; LIFELINE_REQUIRE_COLLECTOR=1 makes this a failure")
		}
		t.Skip(msg)
	}
	tmp := t.TempDir()
	lifeline := filepath.Join(tmp, "lifeline")
	build := exec.Command("go", "build", "-o", lifeline, "github.com/lifeline-dev/lifeline")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building lifeline: %v\n%s", err, out)
	}
	// The hang guard: every wait below ends by this time at the latest.
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()

	const token = "collector-test-token"
	data := filepath.Join(tmp, "data")
	serve := exec.Command(lifeline, "serve", "--data", data, "--http", "127.0.0.1:0", "--grpc", "", "--token", token)
	serveAddr := startServe(t, serve)

	httpAddr, grpcAddr := freePort(t), freePort(t)
	coll := exec.Command(bin, "--config", "to-lifeline.yaml")
	coll.Env = append(os.Environ(), "COLLECTOR_HTTP="+httpAddr, "COLLECTOR_GRPC="+grpcAddr,
		"LIFELINE_ENDPOINT=http://"+serveAddr, "LIFELINE_TOKEN="+token)
	var collLog strings.Builder
	coll.Stdout, coll.Stderr = &collLog, &collLog
	if err := coll.Start(); err != nil {
		t.Fatal(err)
	}
	collDone := make(chan error, 1)
	go func() { collDone <- coll.Wait() }()
	defer func() {
		coll.Process.Kill()
		if t.Failed() {
			t.Logf("collector log:\n%s", collLog.String())
		}
	}()
	for !dialable(httpAddr) || !dialable(grpcAddr) {
		select {
		case err := <-collDone:
			t.Fatalf("the Collector exited: %v\n%s", err, collLog.String())
		case <-ctx.Done():
			t.Fatalf("the Collector does not listen on %s and %s\n%s", httpAddr, grpcAddr, collLog.String())
		case <-time.After(50 * time.Millisecond):
		}
	}

	// Over HTTP four requests at a time with traces split between requests, over gRPC four at
	// a time, each request whole traces; the Collector forwards with its default number of
	// consumers, several batches at once. The halves of a split trace may reach serve more than
	// 256 spans apart (after serve emitted the trace): serve re-places the late half.
	loads := []otlpload.Config{
		{URL: "http://" + httpAddr + "/v1/traces", Spans: 12000, Batch: 100, Concurrency: 4, Seed: 1},
		{GRPC: grpcAddr, Spans: 8000, Batch: 8 * otlpload.SpansPerTrace, Concurrency: 4, Seed: 2},
	}
	total := 0
	for _, l := range loads {
		res, err := otlpload.Send(ctx, l)
		if err != nil {
			t.Fatal(err)
		}
		if res.Spans != int64(l.Spans) || res.Rejected != 0 {
			t.Fatalf("the Collector acknowledged %d spans, rejected %d; sent %d", res.Spans, res.Rejected, l.Spans)
		}
		total += l.Spans
	}
	traces := total / otlpload.SpansPerTrace

	// The Collector acknowledges before it forwards, and a trace's spans may reach serve in
	// several batches, in any order: wait until serve has every span and its index shows every
	// trace as a whole run.
	type row struct {
		Status    string `json:"status"`
		Steps     int    `json:"steps"`
		ToolCalls int    `json:"tool_calls"`
	}
	whole := func(rows []row) string {
		if len(rows) != traces {
			return fmt.Sprintf("%d runs listed, want %d", len(rows), traces)
		}
		for _, r := range rows {
			if r.Status != "completed" || r.Steps != otlpload.Steps || r.ToolCalls != 2*(otlpload.Steps-1) {
				return fmt.Sprintf("run %+v: want completed, %d steps, %d tool calls", r, otlpload.Steps, 2*(otlpload.Steps-1))
			}
		}
		return ""
	}
	for {
		m := metrics(t, serveAddr, token)
		var rows []row
		getJSON(t, "http://"+serveAddr+"/api/runs?limit=100000", token, &rows)
		why := whole(rows)
		if m["lifeline_spans_received_total"] >= float64(total) && why == "" {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("serve has %v of %d spans; /api/runs: %s", m["lifeline_spans_received_total"], total, why)
		case <-time.After(200 * time.Millisecond):
		}
	}

	coll.Process.Signal(syscall.SIGTERM)
	if err := <-collDone; err != nil {
		t.Fatalf("the Collector: %v\n%s", err, collLog.String())
	}
	serve.Process.Signal(syscall.SIGTERM)
	if err := serve.Wait(); err != nil {
		t.Fatalf("serve: %v", err)
	}

	journal := filepath.Join(data, "spans.jsonl")
	for _, l := range loads {
		got, err := otlpload.Count(l.Seed, l.Spans, journal)
		if err != nil {
			t.Fatal(err)
		}
		if got.Missing != 0 || got.Distinct != int64(l.Spans) {
			t.Fatalf("load %d: %d of %d spans in the journal (%+v)", l.Seed, got.Distinct, l.Spans, got)
		}
	}
	out, err := exec.Command(lifeline, "stats", "--format", "json", data).Output()
	if err != nil {
		t.Fatalf("lifeline stats: %v", err)
	}
	var st struct {
		Totals struct {
			Runs      int `json:"runs"`
			Steps     int `json:"steps"`
			ToolCalls int `json:"tool_calls"`
		} `json:"totals"`
		ByStatus []struct {
			Name  string `json:"name"`
			Count int    `json:"count"`
		} `json:"by_status"`
	}
	if err := json.Unmarshal(out, &st); err != nil {
		t.Fatalf("stats --format json: %v\n%s", err, out)
	}
	if len(st.ByStatus) != 1 || st.ByStatus[0].Name != "completed" || st.ByStatus[0].Count != traces {
		t.Fatalf("stats by_status %+v, want %d completed", st.ByStatus, traces)
	}
	if st.Totals.Runs != traces || st.Totals.Steps != traces*otlpload.Steps || st.Totals.ToolCalls != traces*2*(otlpload.Steps-1) {
		t.Fatalf("stats totals %+v, want %d runs, %d steps, %d tool calls", st.Totals, traces, traces*otlpload.Steps, traces*2*(otlpload.Steps-1))
	}
}

// startServe starts serve and returns the HTTP address it printed.
func startServe(t *testing.T, serve *exec.Cmd) string {
	stderr, err := serve.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { serve.Process.Kill() })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`OTLP/HTTP http://([^/\s]+)/v1/traces`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			t.Fatal("serve exited before it listened")
		}
		return a
	case <-time.After(time.Minute):
		t.Fatal("serve did not say where it listens")
	}
	return ""
}

// freePort returns a loopback address no one listens on now.
func freePort(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func dialable(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	c.Close()
	return true
}

func get(t *testing.T, url, token string) []byte {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %s %v\n%s", url, resp.Status, err, b)
	}
	return b
}

func getJSON(t *testing.T, url, token string, v any) {
	if err := json.Unmarshal(get(t, url, token), v); err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
}

// metrics reads serve's /metrics into name{labels} → value.
func metrics(t *testing.T, addr, token string) map[string]float64 {
	m := map[string]float64{}
	for _, line := range strings.Split(string(get(t, "http://"+addr+"/metrics", token)), "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("/metrics line %q: %v", line, fmt.Errorf("value: %w", err))
		}
		m[line[:i]] = v
	}
	return m
}
