// Package otlpload is a bounded OTLP trace load generator and a span counter, for lifeline's
// load test (bench/serve-load.sh) and its Collector end-to-end test (bench/collector).
//
// Send exports exactly Spans spans and stops: real OTLP ExportTraceServiceRequest messages, in
// protobuf over OTLP/HTTP (POST /v1/traces) or over OTLP/gRPC (the collector trace service),
// from Concurrency workers, each request carrying Batch spans. The spans are agent traces in the
// GenAI semantic conventions — an invoke_agent root, chat spans, execute_tool spans — so a
// receiver that reads them sees runs, not just spans. Every id is derived from the load's Seed
// and the span's index, so Count can tell afterwards which of them arrived: an acknowledged span
// that is missing from the store is a loss, whatever the store's own counters say.
//
// A request answered 429/503 (OTLP/HTTP) or RESOURCE_EXHAUSTED/UNAVAILABLE (gRPC) is retried
// after a backoff, as exporters do; any other failure ends the load with an error. Nothing is
// timed against the clock except the optional Deadline, a guard against a server that hangs.
package otlpload

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"
)

// SpansPerTrace is how many spans one generated trace (one agent run) has: an invoke_agent
// root, Steps chat spans, and two execute_tool spans after each chat span but the last.
const (
	Steps         = 3
	SpansPerTrace = 1 + Steps + 2*(Steps-1)
)

// Config is one load.
type Config struct {
	// URL is the OTLP/HTTP traces endpoint (http://HOST:PORT/v1/traces); GRPC, when set, the
	// OTLP/gRPC address (HOST:PORT) used instead.
	URL, GRPC string
	// Token, when set, is sent as Authorization: Bearer TOKEN.
	Token string
	// Spans is how many spans to send in all (rounded up to whole traces is not done: the last
	// trace may be cut short).
	Spans int
	// Batch is how many spans a request carries (512 when 0).
	Batch int
	// Concurrency is how many requests are in flight at once (4 when 0).
	Concurrency int
	// Seed tells this load's ids from another's (the high 8 bytes of every trace id).
	Seed uint64
	// Deadline, when not zero, ends a load still running then with an error (a hang guard).
	Deadline time.Time
}

// Result is what a load did.
type Result struct {
	// Requests and Spans are the requests and spans acknowledged (2xx / OK).
	Requests int64 `json:"requests"`
	Spans    int64 `json:"spans_acked"`
	// Rejected is the spans the server reported in partial_success.
	Rejected int64 `json:"spans_rejected"`
	// Retries counts the requests sent again after back-pressure (429, 503, gRPC codes).
	Retries int64 `json:"retries"`
	// Bytes is the protobuf bytes of the acknowledged requests.
	Bytes int64 `json:"bytes"`
	// Seconds is from the first request to the last acknowledgement.
	Seconds float64 `json:"seconds"`
	// SpansPerSecond is Spans / Seconds.
	SpansPerSecond float64 `json:"spans_per_s"`
}

// Send runs the load and returns once every request is acknowledged, or on the first error.
func Send(ctx context.Context, c Config) (Result, error) {
	if c.Spans <= 0 {
		return Result{}, fmt.Errorf("otlpload: Spans must be positive")
	}
	if c.Batch <= 0 {
		c.Batch = 512
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 4
	}
	if !c.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, c.Deadline)
		defer cancel()
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	export, closeFn, err := exporter(c)
	if err != nil {
		return Result{}, err
	}
	defer closeFn()

	var res Result
	var next atomic.Int64
	nreq := int64((c.Spans + c.Batch - 1) / c.Batch)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < c.Concurrency; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gen := newGenerator(c.Seed)
			for {
				i := next.Add(1) - 1
				if i >= nreq || ctx.Err() != nil {
					return
				}
				from := int(i) * c.Batch
				to := min(from+c.Batch, c.Spans)
				body, err := proto.Marshal(gen.request(from, to))
				if err != nil {
					cancel(err)
					return
				}
				rejected, retries, err := sendRetrying(ctx, export, body)
				atomic.AddInt64(&res.Retries, retries)
				if err != nil {
					cancel(fmt.Errorf("request %d (spans %d-%d): %w", i, from, to-1, err))
					return
				}
				atomic.AddInt64(&res.Requests, 1)
				atomic.AddInt64(&res.Spans, int64(to-from)-rejected)
				atomic.AddInt64(&res.Rejected, rejected)
				atomic.AddInt64(&res.Bytes, int64(len(body)))
			}
		}()
	}
	wg.Wait()
	res.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		res.SpansPerSecond = float64(res.Spans) / res.Seconds
	}
	if err := context.Cause(ctx); err != nil {
		return res, fmt.Errorf("otlpload: %w", err)
	}
	return res, nil
}

// errRetry marks an answer that asks the client to come back (back-pressure).
var errRetry = errors.New("retry")

type exportFunc func(ctx context.Context, body []byte) (rejected int64, err error)

// sendRetrying sends body until it is acknowledged, backing off on back-pressure.
func sendRetrying(ctx context.Context, export exportFunc, body []byte) (rejected, retries int64, err error) {
	backoff := 5 * time.Millisecond
	for {
		rejected, err = export(ctx, body)
		if !errors.Is(err, errRetry) {
			return rejected, retries, err
		}
		retries++
		select {
		case <-ctx.Done():
			return 0, retries, fmt.Errorf("%w (after %d retries: %v)", context.Cause(ctx), retries, err)
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, time.Second)
	}
}

func exporter(c Config) (exportFunc, func(), error) {
	if c.GRPC != "" {
		conn, err := grpc.NewClient(c.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return nil, nil, fmt.Errorf("otlpload: %w", err)
		}
		return func(ctx context.Context, body []byte) (int64, error) {
			// the request's wire bytes as they are: an empty message carrying them as its
			// unknown fields marshals to exactly them (no decode and encode again a request)
			req := &emptypb.Empty{}
			req.ProtoReflect().SetUnknown(body)
			if c.Token != "" {
				ctx = withToken(ctx, c.Token)
			}
			resp := &collpb.ExportTraceServiceResponse{}
			err := conn.Invoke(ctx, collpb.TraceService_Export_FullMethodName, req, resp)
			switch status.Code(err) {
			case codes.OK:
				return resp.GetPartialSuccess().GetRejectedSpans(), nil
			case codes.ResourceExhausted, codes.Unavailable:
				return 0, fmt.Errorf("%w: %v", errRetry, err)
			}
			return 0, err
		}, func() { conn.Close() }, nil
	}
	if c.URL == "" {
		return nil, nil, fmt.Errorf("otlpload: give URL or GRPC")
	}
	tr := &http.Transport{MaxIdleConns: c.Concurrency * 2, MaxIdleConnsPerHost: c.Concurrency * 2, IdleConnTimeout: time.Minute}
	client := &http.Client{Transport: tr}
	return func(ctx context.Context, body []byte) (int64, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Content-Type", "application/x-protobuf")
		if c.Token != "" {
			req.Header.Set("Authorization", "Bearer "+c.Token)
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err != nil {
			return 0, fmt.Errorf("reading the answer: %w", err)
		}
		switch {
		case resp.StatusCode == http.StatusOK:
			var out collpb.ExportTraceServiceResponse
			if err := proto.Unmarshal(b, &out); err != nil {
				return 0, fmt.Errorf("answer is not an ExportTraceServiceResponse: %w", err)
			}
			return out.GetPartialSuccess().GetRejectedSpans(), nil
		case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable:
			return 0, fmt.Errorf("%w: %s", errRetry, resp.Status)
		}
		return 0, fmt.Errorf("%s: %s", resp.Status, bytes.TrimSpace(b))
	}, tr.CloseIdleConnections, nil
}

// generator builds the requests of one load; each worker has its own (it reuses buffers).
type generator struct {
	seed uint64
	res  *resourcepb.Resource
}

func newGenerator(seed uint64) *generator {
	return &generator{seed: seed, res: &resourcepb.Resource{Attributes: []*commonpb.KeyValue{
		str("service.name", "otlpload"),
		str("telemetry.sdk.language", "go"),
	}}}
}

// base is the start time of trace 0; each trace starts a second after the one before.
var base = time.Date(2026, 11, 30, 8, 0, 0, 0, time.UTC)

// TraceID and SpanID are the ids of span n (its index in the load) of the load seeded with seed.
func TraceID(seed uint64, n int) []byte {
	id := make([]byte, 16)
	binary.BigEndian.PutUint64(id, seed|1<<63)
	binary.BigEndian.PutUint64(id[8:], uint64(n/SpansPerTrace)+1)
	return id
}

// SpanID is the span id of span n.
func SpanID(n int) []byte {
	id := make([]byte, 8)
	binary.BigEndian.PutUint64(id, uint64(n)+1)
	return id
}

// request builds the spans [from, to) of the load: within a trace, the children in the order
// they end and the root last, as SDK exporters send them.
func (g *generator) request(from, to int) *collpb.ExportTraceServiceRequest {
	spans := make([]*tracepb.Span, 0, to-from)
	for n := from; n < to; n++ {
		spans = append(spans, g.span(n))
	}
	return &collpb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{
		Resource: g.res,
		ScopeSpans: []*tracepb.ScopeSpans{{
			Scope: &commonpb.InstrumentationScope{Name: "otlpload", Version: "1"},
			Spans: spans,
		}},
	}}}
}

// span is span n: k = n mod SpansPerTrace is its place in its trace: 0..SpansPerTrace-2 the
// children (chat, tool, tool, chat, tool, tool, …, chat), SpansPerTrace-1 the root.
func (g *generator) span(n int) *tracepb.Span {
	tr := n / SpansPerTrace
	k := n % SpansPerTrace
	rootN := tr*SpansPerTrace + SpansPerTrace - 1
	t0 := uint64(base.UnixNano()) + uint64(tr)*uint64(time.Second)
	sp := &tracepb.Span{TraceId: TraceID(g.seed, n), SpanId: SpanID(n), Kind: tracepb.Span_SPAN_KIND_INTERNAL}
	if k == SpansPerTrace-1 {
		sp.Name = "invoke_agent otlpload"
		sp.StartTimeUnixNano, sp.EndTimeUnixNano = t0, t0+uint64(SpansPerTrace)*20e6
		sp.Attributes = []*commonpb.KeyValue{
			str("gen_ai.operation.name", "invoke_agent"),
			str("gen_ai.agent.name", "otlpload"),
			str("gen_ai.conversation.id", "conv-"+strconv.Itoa(tr)),
		}
		return sp
	}
	sp.ParentSpanId = SpanID(rootN)
	step, tool := k/3, k%3 // within a step: 0 the chat span, 1 and 2 its tool calls
	start := t0 + uint64(k+1)*20e6
	sp.StartTimeUnixNano, sp.EndTimeUnixNano = start, start+15e6
	sp.Status = &tracepb.Status{Code: tracepb.Status_STATUS_CODE_OK}
	if tool == 0 {
		sp.Name = "chat gpt-4.1"
		out := `[{"role":"assistant","parts":[{"type":"text","content":"Paris: 18C, light rain."}]}]`
		if step < Steps-1 {
			out = fmt.Sprintf(`[{"role":"assistant","parts":[{"type":"tool_call","id":"call_%d_%d_0","name":"get_weather","arguments":{"city":"Paris"}},{"type":"tool_call","id":"call_%d_%d_1","name":"get_time","arguments":{"city":"Paris"}}]}]`, tr, step, tr, step)
		}
		sp.Attributes = []*commonpb.KeyValue{
			str("gen_ai.operation.name", "chat"),
			str("gen_ai.provider.name", "openai"),
			str("gen_ai.request.model", "gpt-4.1"),
			num("gen_ai.usage.input_tokens", 412),
			num("gen_ai.usage.output_tokens", 37),
			str("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"What is the weather in Paris, and the time there?"}]}]`),
			str("gen_ai.output.messages", out),
		}
		return sp
	}
	name := "get_weather"
	if tool == 2 {
		name = "get_time"
	}
	sp.Name = "execute_tool " + name
	sp.Attributes = []*commonpb.KeyValue{
		str("gen_ai.operation.name", "execute_tool"),
		str("gen_ai.tool.name", name),
		str("gen_ai.tool.call.id", fmt.Sprintf("call_%d_%d_%d", tr, step, tool-1)),
		str("gen_ai.tool.call.arguments", `{"city":"Paris"}`),
		str("gen_ai.tool.call.result", "18C, light rain"),
	}
	return sp
}

func withToken(ctx context.Context, token string) context.Context {
	return metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer "+token)
}

func str(k, v string) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
}

func num(k string, v int64) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v}}}
}

// Tally is what Count found.
type Tally struct {
	// Lines is the JSON lines read (one request or TracesData each).
	Lines int64 `json:"lines"`
	// Spans is every span read; Distinct the spans of the load (by trace and span id), each
	// counted once; Foreign the spans of other loads or other producers.
	Spans    int64 `json:"spans"`
	Distinct int64 `json:"distinct"`
	Foreign  int64 `json:"foreign"`
	// Missing is how many of the load's spans were not found (when the load's size is known).
	Missing int64 `json:"missing"`
}

// Count reads OTLP JSON lines — lifeline's journal (spans.jsonl, ids in base64) or a Collector
// file exporter's output (ids in hex) — and counts the spans of the load seeded with seed, of
// which there were want (Missing says how many were not found; 0 leaves it unchecked). It
// streams: memory is one bit a span of the load.
func Count(seed uint64, want int, files ...string) (Tally, error) {
	var t Tally
	seen := make([]uint64, (want+63)/64)
	var extra map[uint64]bool
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			return t, fmt.Errorf("otlpload: %w", err)
		}
		err = countFile(f, seed, want, seen, &extra, &t)
		f.Close()
		if err != nil {
			return t, fmt.Errorf("otlpload: %s: %w", name, err)
		}
	}
	if want > 0 {
		t.Missing = int64(want) - (t.Distinct - int64(len(extra)))
	}
	return t, nil
}

// countFile reads one file. Only the ids are decoded (encoding/json over a struct of the id
// fields), so it keeps up with a large journal.
func countFile(r io.Reader, seed uint64, want int, seen []uint64, extra *map[uint64]bool, t *Tally) error {
	type span struct {
		TraceID string `json:"traceId"`
		SpanID  string `json:"spanId"`
	}
	type doc struct {
		ResourceSpans []struct {
			ScopeSpans []struct {
				Spans []span `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	br := bufio.NewReaderSize(r, 1<<20)
	wantTrace := make([]byte, 8)
	binary.BigEndian.PutUint64(wantTrace, seed|1<<63)
	line := 0
	for {
		b, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(b)) > 0 {
			line++
			var d doc
			if err := json.Unmarshal(b, &d); err != nil {
				return fmt.Errorf("line %d: %w", line, err)
			}
			t.Lines++
			for _, rs := range d.ResourceSpans {
				for _, ss := range rs.ScopeSpans {
					for _, sp := range ss.Spans {
						t.Spans++
						tid, err1 := decodeID(sp.TraceID, 16)
						sid, err2 := decodeID(sp.SpanID, 8)
						if err := errors.Join(err1, err2); err != nil {
							return fmt.Errorf("line %d: %w", line, err)
						}
						n := binary.BigEndian.Uint64(sid) - 1
						if !bytes.Equal(tid[:8], wantTrace) || binary.BigEndian.Uint64(tid[8:]) != n/SpansPerTrace+1 {
							t.Foreign++
							continue
						}
						if n < uint64(want) {
							if seen[n/64]&(1<<(n%64)) == 0 {
								seen[n/64] |= 1 << (n % 64)
								t.Distinct++
							}
							continue
						}
						if *extra == nil {
							*extra = map[uint64]bool{}
						}
						if !(*extra)[n] {
							(*extra)[n] = true
							t.Distinct++
						}
					}
				}
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// decodeID reads an id written in hex (OTLP JSON, the Collector) or base64 (protojson).
func decodeID(s string, size int) ([]byte, error) {
	if len(s) == 2*size {
		if b, err := hex.DecodeString(s); err == nil {
			return b, nil
		}
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) != size {
		return nil, fmt.Errorf("id %q is neither %d bytes of hex nor of base64", s, size)
	}
	return b, nil
}
