package receiver

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/lifeline-dev/lifeline/tracer/store"
)

// TestGRPCExport: over OTLP/gRPC a request taken by the transcoder and one it leaves to the
// general path (the same span sent with its name twice, which proto reads as the last) are both
// journaled with the spans they mean; bad ids are partial_success as over HTTP; a body that is
// not protobuf is INVALID_ARGUMENT.
func TestGRPCExport(t *testing.T) {
	dir := t.TempDir()
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gs := grpc.NewServer()
	New(st).RegisterGRPC(gs)
	go gs.Serve(ln)
	conn, err := grpc.NewClient(ln.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	client := collpb.NewTraceServiceClient(conn)
	good := &tracepb.Span{TraceId: []byte("0123456789abcdef"), SpanId: []byte("span0001"), Name: "chat"}
	bad := &tracepb.Span{TraceId: []byte{1}, SpanId: []byte("span0002"), Name: "bad"}
	req := &collpb.ExportTraceServiceRequest{ResourceSpans: []*tracepb.ResourceSpans{{ScopeSpans: []*tracepb.ScopeSpans{{Spans: []*tracepb.Span{good, bad}}}}}}
	resp, err := client.Export(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if ps := resp.GetPartialSuccess(); ps.GetRejectedSpans() != 1 || ps.GetErrorMessage() != `span "bad": trace_id is 1 bytes: expected 16, not all zero` {
		t.Fatalf("partial success %v", ps)
	}
	// the same good span with a second name field appended: proto keeps "renamed"
	spanBytes, _ := proto.Marshal(good)
	spanBytes = protowire.AppendString(protowire.AppendTag(spanBytes, 5, protowire.BytesType), "renamed")
	ss := protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), spanBytes)
	rs := protowire.AppendBytes(protowire.AppendTag(nil, 2, protowire.BytesType), ss)
	body := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), rs)
	if _, ok := store.TranscodeJSON(nil, body, badIDs); ok {
		t.Fatal("the transcoder takes a field twice")
	}
	raw := &emptypb.Empty{}
	raw.ProtoReflect().SetUnknown(body)
	out := &collpb.ExportTraceServiceResponse{}
	if err := conn.Invoke(context.Background(), collpb.TraceService_Export_FullMethodName, raw, out); err != nil || out.GetPartialSuccess() != nil {
		t.Fatalf("a request for the general path: %v %v", out, err)
	}
	raw.ProtoReflect().SetUnknown([]byte{0xff, 0xff})
	if err := conn.Invoke(context.Background(), collpb.TraceService_Export_FullMethodName, raw, out); status.Code(err) != codes.Internal && status.Code(err) != codes.InvalidArgument {
		t.Fatalf("a body that is not protobuf: %v", err)
	}
	conn.Close()
	gs.Stop()
	st.Close()

	data, err := os.ReadFile(filepath.Join(dir, store.SpansFile))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, line := range splitLines(data) {
		r := &collpb.ExportTraceServiceRequest{}
		if err := UnmarshalJSON(line, r); err != nil {
			t.Fatal(err)
		}
		for _, rs := range r.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					names = append(names, sp.Name)
				}
			}
		}
	}
	if len(names) != 2 || names[0] != "chat" || names[1] != "renamed" {
		t.Fatalf("journaled spans %q, want [chat renamed]", names)
	}
}

func splitLines(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != '\n' {
			i++
		}
		if i > 0 {
			out = append(out, b[:i])
		}
		if i < len(b) {
			i++
		}
		b = b[i:]
	}
	return out
}

// TestGRPCRetryInfo: the statuses a full queue and a shutdown answer carry a google.rpc.RetryInfo
// of RetryAfter seconds (without it OTLP exporters do not retry RESOURCE_EXHAUSTED); other
// errors are INTERNAL without one.
func TestGRPCRetryInfo(t *testing.T) {
	for _, c := range []struct {
		err   error
		code  codes.Code
		retry bool
	}{
		{store.ErrBusy, codes.ResourceExhausted, true},
		{store.ErrClosed, codes.Unavailable, true},
		{context.Canceled, codes.Unavailable, true},
		{os.ErrPermission, codes.Internal, false},
	} {
		st := status.Convert(grpcError(c.err))
		if st.Code() != c.code {
			t.Errorf("%v: code %v, want %v", c.err, st.Code(), c.code)
		}
		var delay int64 = -1
		for _, d := range st.Proto().GetDetails() {
			if d.GetTypeUrl() != "type.googleapis.com/google.rpc.RetryInfo" {
				continue
			}
			// RetryInfo{retry_delay (1): Duration{seconds (1)}}
			b := d.GetValue()
			num, typ, n := protowire.ConsumeTag(b)
			if num != 1 || typ != protowire.BytesType || n < 0 {
				t.Fatalf("%v: RetryInfo %x", c.err, b)
			}
			dur, m := protowire.ConsumeBytes(b[n:])
			num, typ, n = protowire.ConsumeTag(dur)
			if m < 0 || num != 1 || typ != protowire.VarintType || n < 0 {
				t.Fatalf("%v: Duration %x", c.err, dur)
			}
			v, _ := protowire.ConsumeVarint(dur[n:])
			delay = int64(v)
		}
		if c.retry && delay != RetryAfter || !c.retry && delay != -1 {
			t.Errorf("%v: RetryInfo delay %d s, want %v (retry %v)", c.err, delay, RetryAfter, c.retry)
		}
	}
}
