package web

import (
	"context"
	"errors"
	"os"
	"testing"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"

	"github.com/lifeline-dev/lifeline/tracer/receiver"
	"github.com/lifeline-dev/lifeline/tracer/store"
)

// TestServeGRPC runs the whole server on loopback ports, exports a real trace over OTLP/gRPC
// (refused without the token, taken with it), stops the server and reopens its store: the
// spans and the run are there.
func TestServeGRPC(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	addrs := make(chan Addrs, 1)
	done := make(chan error, 1)
	st0, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		err := Serve(ctx, st0, receiver.New(st0), Config{HTTP: "127.0.0.1:0", GRPC: "127.0.0.1:0", Token: "tok"}, func(a Addrs) { addrs <- a })
		done <- errors.Join(err, st0.Close())
	}()
	var a Addrs
	select {
	case a = <-addrs:
	case err := <-done:
		t.Fatal(err)
	}
	conn, err := grpc.NewClient(a.GRPC, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := collpb.NewTraceServiceClient(conn)
	body, err := os.ReadFile(fixtures + "vercel-ai-v7-genai_03_step_limit.otlp.json")
	if err != nil {
		t.Fatal(err)
	}
	var req collpb.ExportTraceServiceRequest
	if err := receiver.UnmarshalJSON(body, &req); err != nil {
		t.Fatal(err)
	}
	spans := store.SpanCount(&req)
	if _, err := client.Export(context.Background(), &req); status.Code(err) != codes.Unauthenticated {
		t.Fatalf("without the token: %v", err)
	}
	authed := metadata.AppendToOutgoingContext(context.Background(), "authorization", "Bearer tok")
	resp, err := client.Export(authed, &req)
	if err != nil || resp.GetPartialSuccess() != nil {
		t.Fatalf("export: %v %v", resp, err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if c := st.Counters(); c.Spans != int64(spans) {
		t.Fatalf("%d spans in the store, want %d", c.Spans, spans)
	}
	if rows, _ := st.Runs(store.Query{}); len(rows) != 1 || rows[0].StopReason != "max_steps" {
		t.Fatalf("runs %+v", rows)
	}
}
