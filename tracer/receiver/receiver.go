// Package receiver is `lifeline serve`'s ingest side: an OTLP/HTTP trace receiver
// (POST /v1/traces, protobuf or JSON, optionally gzip) and a canonical event log receiver
// (POST /v1/events, JSON Lines), both writing into a store.Store and acknowledging only what
// the store has fsynced.
//
// OTLP/HTTP as the specification has it: the response is an ExportTraceServiceResponse in the
// request's encoding; spans that cannot be kept (a trace id that is not 16 bytes, a span id that
// is not 8, or all zeros) are dropped and reported in partial_success with the count and the
// reason; a full write queue is 429 with Retry-After, a store shutting down 503 with
// Retry-After; an unreadable body is 400 and an unsupported Content-Type or Content-Encoding
// 415, each with a message saying what was expected.
package receiver

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/lifeline-dev/lifeline/model"
	"github.com/lifeline-dev/lifeline/tracer/store"
)

// Paths the receiver serves.
const (
	TracesPath = "/v1/traces"
	EventsPath = "/v1/events"
)

// MaxBody is the largest request body accepted, after decompression.
const MaxBody = 32 << 20

// RetryAfter is the Retry-After value (seconds) sent with 429 and 503.
const RetryAfter = 1

// Receiver serves the ingest endpoints.
type Receiver struct {
	st *store.Store
}

// New returns a receiver writing into st.
func New(st *store.Store) *Receiver { return &Receiver{st: st} }

// Register adds the receiver's endpoints to mux.
func (rc *Receiver) Register(mux *http.ServeMux) {
	mux.HandleFunc(TracesPath, rc.traces)
	mux.HandleFunc(EventsPath, rc.events)
}

type encoding int

const (
	encProto encoding = iota
	encJSON
)

func (rc *Receiver) traces(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST an OTLP ExportTraceServiceRequest to "+TracesPath, http.StatusMethodNotAllowed)
		return
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	var enc encoding
	switch ct {
	case "application/x-protobuf", "application/protobuf":
		enc = encProto
	case "application/json":
		enc = encJSON
	default:
		http.Error(w, fmt.Sprintf("unsupported Content-Type %q: expected application/x-protobuf or application/json", r.Header.Get("Content-Type")), http.StatusUnsupportedMediaType)
		return
	}
	body, status, err := readBody(r)
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	if enc == encProto {
		// the common case, straight from the wire to the journal line; anything unusual
		// takes the general path below
		if t, ok := store.TranscodeJSON(make([]byte, 0, 2*len(body)+1024), body, badIDs); ok {
			rc.appendSpans(w, r, enc, store.Batch{SpansJSON: t.Line, NSpans: t.Spans}, t.Rejected, rejectMessage(t.Rejected, t.FirstName, t.FirstWhy))
			return
		}
	}
	req := &collpb.ExportTraceServiceRequest{}
	if enc == encProto {
		err = proto.Unmarshal(body, req)
	} else {
		err = UnmarshalJSON(body, req)
	}
	if err != nil {
		writeStatus(w, enc, http.StatusBadRequest, fmt.Sprintf("bad OTLP %s body: %v", encName(enc), err))
		return
	}
	rejected, why := validate(req)
	rc.appendSpans(w, r, enc, store.Batch{Spans: req}, rejected, why)
}

// appendSpans journals an OTLP batch and answers: partial_success when spans were rejected.
func (rc *Receiver) appendSpans(w http.ResponseWriter, r *http.Request, enc encoding, b store.Batch, rejected int, why string) {
	if rejected > 0 {
		rc.st.CountRejected(rejected)
	}
	if err := rc.st.Append(r.Context(), b); err != nil {
		rc.fail(w, enc, err)
		return
	}
	resp := &collpb.ExportTraceServiceResponse{}
	if rejected > 0 {
		resp.PartialSuccess = &collpb.ExportTracePartialSuccess{RejectedSpans: int64(rejected), ErrorMessage: why}
	}
	writeMessage(w, enc, http.StatusOK, resp)
}

func encName(e encoding) string {
	if e == encJSON {
		return "JSON"
	}
	return "protobuf"
}

// fail answers a store error: 429 when the queue is full, 503 when closing, 500 otherwise.
func (rc *Receiver) fail(w http.ResponseWriter, enc encoding, err error) {
	switch {
	case errors.Is(err, store.ErrBusy):
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
		writeStatus(w, enc, http.StatusTooManyRequests, "lifeline: the write queue is full; retry after "+strconv.Itoa(RetryAfter)+"s")
	case errors.Is(err, store.ErrClosed):
		w.Header().Set("Retry-After", strconv.Itoa(RetryAfter))
		writeStatus(w, enc, http.StatusServiceUnavailable, "lifeline: shutting down; retry after "+strconv.Itoa(RetryAfter)+"s")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		writeStatus(w, enc, http.StatusServiceUnavailable, "lifeline: request ended before the batch was on disk")
	default:
		writeStatus(w, enc, http.StatusInternalServerError, "lifeline: "+err.Error())
	}
}

// readBody reads the body, decompressing gzip, up to MaxBody.
func readBody(r *http.Request) ([]byte, int, error) {
	var src io.Reader = r.Body
	switch ce := strings.ToLower(strings.TrimSpace(r.Header.Get("Content-Encoding"))); ce {
	case "", "identity":
	case "gzip":
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			return nil, http.StatusBadRequest, fmt.Errorf("bad gzip body: %v", err)
		}
		defer zr.Close()
		src = zr
	default:
		return nil, http.StatusUnsupportedMediaType, fmt.Errorf("unsupported Content-Encoding %q: expected gzip or none", ce)
	}
	b, err := io.ReadAll(io.LimitReader(src, MaxBody+1))
	if err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("reading the body: %v", err)
	}
	if len(b) > MaxBody {
		return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("body larger than %d bytes: send smaller batches", MaxBody)
	}
	return b, 0, nil
}

// validate drops the spans whose ids cannot identify them and says how many and why.
func validate(req *collpb.ExportTraceServiceRequest) (int, string) {
	rejected := 0
	var first string
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			kept := ss.Spans[:0]
			for _, sp := range ss.Spans {
				if why := badSpan(sp); why != "" {
					rejected++
					if first == "" {
						first = fmt.Sprintf("span %q: %s", sp.GetName(), why)
					}
					continue
				}
				kept = append(kept, sp)
			}
			ss.Spans = kept
		}
	}
	return rejected, rejectMessage(rejected, first, "")
}

// rejectMessage is partial_success's error_message: the first rejected span (name and why,
// or first already formatted when why is "") and how many there were.
func rejectMessage(rejected int, name, why string) string {
	if rejected == 0 {
		return ""
	}
	first := name
	if why != "" {
		first = fmt.Sprintf("span %q: %s", name, why)
	}
	if rejected > 1 {
		return fmt.Sprintf("%d spans rejected; the first: %s", rejected, first)
	}
	return first
}

func badSpan(sp *tracepb.Span) string { return badIDs(sp.TraceId, sp.SpanId, sp.ParentSpanId) }

// badIDs says why ids cannot identify a span ("" when they can).
func badIDs(traceID, spanID, parentSpanID []byte) string {
	switch {
	case len(traceID) != 16 || allZero(traceID):
		return fmt.Sprintf("trace_id is %d bytes: expected 16, not all zero", len(traceID))
	case len(spanID) != 8 || allZero(spanID):
		return fmt.Sprintf("span_id is %d bytes: expected 8, not all zero", len(spanID))
	case len(parentSpanID) != 0 && len(parentSpanID) != 8:
		return fmt.Sprintf("parent_span_id is %d bytes: expected 8 or none", len(parentSpanID))
	}
	return ""
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// UnmarshalJSON reads an OTLP JSON ExportTraceServiceRequest (the OTLP/HTTP JSON encoding). OTLP JSON writes trace and span ids as hex where protojson
// expects base64, so the ids are rewritten first; everything else is protojson's.
func UnmarshalJSON(body []byte, req *collpb.ExportTraceServiceRequest) error {
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return fmt.Errorf("not a JSON object: %v", err)
	}
	if dec.More() {
		return fmt.Errorf("data after the JSON object: send one ExportTraceServiceRequest per request")
	}
	if err := hexIDs(doc); err != nil {
		return err
	}
	fixed, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	return protojson.UnmarshalOptions{DiscardUnknown: true}.Unmarshal(fixed, req)
}

var idKeys = []string{"traceId", "trace_id", "spanId", "span_id", "parentSpanId", "parent_span_id"}

func hexIDs(doc map[string]any) error {
	for _, rs := range list(doc, "resourceSpans", "resource_spans") {
		for _, ss := range list(rs, "scopeSpans", "scope_spans") {
			for i, sp := range list(ss, "spans") {
				if err := fixIDs(sp); err != nil {
					return fmt.Errorf("span %d: %v", i, err)
				}
				for _, l := range list(sp, "links") {
					if err := fixIDs(l); err != nil {
						return fmt.Errorf("span %d: link: %v", i, err)
					}
				}
			}
		}
	}
	return nil
}

func list(m any, keys ...string) []map[string]any {
	obj, ok := m.(map[string]any)
	if !ok {
		return nil
	}
	for _, k := range keys {
		if arr, ok := obj[k].([]any); ok {
			out := make([]map[string]any, 0, len(arr))
			for _, e := range arr {
				if o, ok := e.(map[string]any); ok {
					out = append(out, o)
				}
			}
			return out
		}
	}
	return nil
}

func fixIDs(m map[string]any) error {
	for _, k := range idKeys {
		s, ok := m[k].(string)
		if !ok || s == "" {
			continue
		}
		b, err := hex.DecodeString(s)
		if err != nil {
			// not hex: leave it for protojson, which takes base64
			if _, err2 := base64.StdEncoding.DecodeString(s); err2 != nil {
				return fmt.Errorf("%s %q is neither hex nor base64", k, s)
			}
			continue
		}
		m[k] = base64.StdEncoding.EncodeToString(b)
	}
	return nil
}

func writeMessage(w http.ResponseWriter, enc encoding, code int, m proto.Message) {
	var b []byte
	var err error
	if enc == encJSON {
		w.Header().Set("Content-Type", "application/json")
		b, err = protojson.Marshal(m)
	} else {
		w.Header().Set("Content-Type", "application/x-protobuf")
		b, err = proto.Marshal(m)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.WriteHeader(code)
	w.Write(b)
}

// writeStatus answers an error with a google.rpc.Status-shaped body, as OTLP/HTTP asks: the
// protobuf encoding gets a plain-text message (no Status proto is linked), JSON a
// {"code","message"} object.
func writeStatus(w http.ResponseWriter, enc encoding, code int, msg string) {
	if enc == encJSON {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(map[string]any{"code": code, "message": msg})
		return
	}
	http.Error(w, msg, code)
}

// EventsResponse is the answer to a canonical batch.
type EventsResponse struct {
	Accepted int      `json:"accepted"`
	Rejected int      `json:"rejected"`
	Errors   []string `json:"errors,omitempty"`
}

// events takes canonical event lines (JSON Lines); each line is checked with the canonical
// decoder, the good ones are journaled as they are and the bad ones reported by line.
func (rc *Receiver) events(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST canonical events, one JSON object a line, to "+EventsPath, http.StatusMethodNotAllowed)
		return
	}
	ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/x-ndjson", "application/jsonl", "application/json", "application/x-jsonlines", "text/plain", "":
	default:
		http.Error(w, fmt.Sprintf("unsupported Content-Type %q: expected application/x-ndjson (canonical events, one a line)", r.Header.Get("Content-Type")), http.StatusUnsupportedMediaType)
		return
	}
	body, status, err := readBody(r)
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	var resp EventsResponse
	var lines [][]byte
	for n, rest := 0, body; len(rest) > 0; {
		n++
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if _, err := model.DecodeLine(line); err != nil {
			resp.Rejected++
			if len(resp.Errors) < 20 {
				resp.Errors = append(resp.Errors, fmt.Sprintf("line %d: %v", n, err))
			}
			continue
		}
		var c bytes.Buffer
		if json.Compact(&c, line) == nil {
			line = c.Bytes()
		}
		lines = append(lines, line)
	}
	resp.Accepted = len(lines)
	if len(lines) == 0 && resp.Rejected == 0 {
		http.Error(w, "empty body: expected canonical events, one JSON object a line", http.StatusBadRequest)
		return
	}
	if err := rc.st.Append(r.Context(), store.Batch{Events: lines}); err != nil {
		rc.fail(w, encJSON, err)
		return
	}
	code := http.StatusOK
	if resp.Accepted == 0 {
		code = http.StatusBadRequest
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(resp)
}
