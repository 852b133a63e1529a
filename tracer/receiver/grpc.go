package receiver

import (
	"context"
	"errors"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/lifeline-dev/lifeline/tracer/store"
)

// traceService is the OTLP/gRPC collector trace service over the same store and the same
// validation as OTLP/HTTP. A full write queue is RESOURCE_EXHAUSTED and a store shutting down
// UNAVAILABLE, the codes OTLP exporters retry with backoff.
type traceService struct {
	collpb.UnimplementedTraceServiceServer
	st *store.Store
}

// RegisterGRPC adds the OTLP trace service to a gRPC server.
func (rc *Receiver) RegisterGRPC(s *grpc.Server) {
	collpb.RegisterTraceServiceServer(s, &traceService{st: rc.st})
}

// Export journals one batch and answers once it is on disk.
func (t *traceService) Export(ctx context.Context, req *collpb.ExportTraceServiceRequest) (*collpb.ExportTraceServiceResponse, error) {
	rejected, why := validate(req)
	if rejected > 0 {
		t.st.CountRejected(rejected)
	}
	if err := t.st.Append(ctx, store.Batch{Spans: req}); err != nil {
		switch {
		case errors.Is(err, store.ErrBusy):
			return nil, status.Error(codes.ResourceExhausted, "lifeline: the write queue is full; retry later")
		case errors.Is(err, store.ErrClosed):
			return nil, status.Error(codes.Unavailable, "lifeline: shutting down; retry later")
		case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
			return nil, status.Error(codes.Unavailable, "lifeline: request ended before the batch was on disk")
		}
		return nil, status.Error(codes.Internal, "lifeline: "+err.Error())
	}
	resp := &collpb.ExportTraceServiceResponse{}
	if rejected > 0 {
		resp.PartialSuccess = &collpb.ExportTracePartialSuccess{RejectedSpans: int64(rejected), ErrorMessage: why}
	}
	return resp, nil
}
