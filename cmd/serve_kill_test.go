package cmd

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	"github.com/lifeline-dev/lifeline/bench/otlpload"
)

// startServe starts `lifeline serve --data dir` on a free loopback port (no gRPC) and returns
// the process and its base URL, once it says it listens.
func startServe(t *testing.T, dir string) (*exec.Cmd, string) {
	t.Helper()
	c := exec.Command(binary, "serve", "--data", dir, "--http", "127.0.0.1:0", "--grpc", "")
	stderr, err := c.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Process.Kill()
		c.Wait()
	})
	addr := make(chan string, 1)
	var log bytes.Buffer
	var logMu sync.Mutex
	go func() {
		ui := regexp.MustCompile(`UI http://([^/]+)/`)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			logMu.Lock()
			log.WriteString(sc.Text() + "\n")
			logMu.Unlock()
			if m := ui.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
	}()
	select {
	case a, ok := <-addr:
		if !ok {
			logMu.Lock()
			defer logMu.Unlock()
			t.Fatalf("lifeline serve ended before it listened:\n%s", log.String())
		}
		return c, "http://" + a
	case <-time.After(5 * time.Minute): // a hang guard only: the server says when it listens
		t.Fatal("lifeline serve did not say it listens")
	}
	return nil, ""
}

// TestServeKillLosesNothingAcknowledged: a bounded generator sends OTLP/HTTP protobuf batches
// (whole agent traces, bench/otlpload's) from several workers to a `lifeline serve` child
// process, counting every batch answered 2xx; once some are acknowledged the server is killed
// (SIGKILL) while the workers keep sending; restarted on the same data directory, the server
// has every acknowledged span: each acknowledged trace is a run with all its steps and tool
// calls (through the HTTP API), and the journal counts at least the acknowledged spans.
func TestServeKillLosesNothingAcknowledged(t *testing.T) {
	dir := t.TempDir()
	srv, url := startServe(t, dir)

	const (
		seed     = 42
		traces   = 4 // a request
		per      = traces * otlpload.SpansPerTrace
		requests = 2000 // the bound of the load: it never gets there, the kill comes first
		killAt   = 40   // acknowledged requests before the kill
		workers  = 4
	)
	client := &http.Client{Timeout: 2 * time.Minute} // a hang guard
	var (
		next     atomic.Int64
		ackedN   atomic.Int64
		failed   atomic.Int64 // requests that got no answer (the server was gone)
		acked    [requests]atomic.Bool
		killOnce sync.Once
		kill     = make(chan struct{})
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= requests {
					return
				}
				body, err := proto.Marshal(otlpload.Request(seed, i*per, (i+1)*per))
				if err != nil {
					t.Error(err)
					return
				}
				for {
					resp, err := client.Post(url+"/v1/traces", "application/x-protobuf", bytes.NewReader(body))
					if err != nil {
						failed.Add(1) // killed: this batch was never acknowledged
						return
					}
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
						time.Sleep(10 * time.Millisecond) // back-pressure: retry, as exporters do
						continue
					}
					if resp.StatusCode/100 != 2 {
						t.Errorf("request %d: %s", i, resp.Status)
						return
					}
					acked[i].Store(true)
					if ackedN.Add(1) == killAt {
						killOnce.Do(func() { close(kill) })
					}
					break
				}
			}
		}()
	}
	<-kill
	if err := srv.Process.Kill(); err != nil { // SIGKILL, mid-load: the workers are sending
		t.Fatal(err)
	}
	srv.Wait()
	wg.Wait()
	if failed.Load() == 0 {
		t.Fatal("no request went unanswered: the server was not killed under load")
	}
	var ackedSpans int64
	var want []int
	for i := range acked {
		if acked[i].Load() {
			want = append(want, i)
			ackedSpans += per
		}
	}
	t.Logf("%d requests (%d spans) acknowledged before the kill, %d cut off by it", len(want), ackedSpans, failed.Load())

	_, url = startServe(t, dir)
	resp, err := client.Get(url + "/api/runs?limit=1000000")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct {
		RunID      string `json:"run_id"`
		Status     string `json:"status"`
		Steps      int    `json:"steps"`
		ToolCalls  int    `json:"tool_calls"`
		StopReason string `json:"stop_reason"`
	}
	err = json.NewDecoder(resp.Body).Decode(&rows)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]int{}
	for i, r := range rows {
		byID[r.RunID] = i
	}
	for _, i := range want {
		for tr := range traces {
			n := i*per + tr*otlpload.SpansPerTrace
			id := hex.EncodeToString(otlpload.TraceID(seed, n))
			k, ok := byID[id]
			if !ok {
				t.Fatalf("acknowledged trace %s (request %d) is not in the restarted store (%d runs there)", id, i, len(rows))
			}
			if r := rows[k]; r.Steps != otlpload.Steps || r.ToolCalls != 2*(otlpload.Steps-1) || r.Status != "completed" {
				t.Fatalf("acknowledged trace %s (request %d) came back as %+v, want completed with %d steps and %d tool calls", id, i, r, otlpload.Steps, 2*(otlpload.Steps-1))
			}
		}
	}
	resp, err = client.Get(url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`(?m)^lifeline_spans_received_total (\d+)$`).FindSubmatch(metrics)
	if m == nil {
		t.Fatalf("no lifeline_spans_received_total in /metrics:\n%s", metrics)
	}
	if got, _ := strconv.ParseInt(string(m[1]), 10, 64); got < ackedSpans {
		t.Fatalf("the journal has %d spans, fewer than the %d acknowledged", got, ackedSpans)
	} else if got%per != 0 {
		t.Fatalf("the journal has %d spans: not whole requests of %d (a torn record was kept)", got, per)
	}
	if !strings.Contains(string(metrics), "lifeline_runs{") {
		t.Fatal(fmt.Sprintf("no lifeline_runs in /metrics:\n%s", metrics))
	}
}
