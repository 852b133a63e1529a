package receiver

import (
	"context"
	"errors"

	collpb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/emptypb"

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
	s.RegisterService(&traceServiceDesc, &traceService{st: rc.st})
}

// traceServiceDesc is collpb.TraceService_ServiceDesc with a handler of its own: the request
// is read as an empty message, which keeps its fields as they came (unknown fields, copied
// verbatim), so that store.TranscodeJSON takes them straight to the journal line as it does
// for OTLP/HTTP; a request it does not take is decoded and handled by Export.
var traceServiceDesc = grpc.ServiceDesc{
	ServiceName: collpb.TraceService_ServiceDesc.ServiceName,
	HandlerType: (*any)(nil),
	Methods:     []grpc.MethodDesc{{MethodName: "Export", Handler: exportHandler}},
	Metadata:    collpb.TraceService_ServiceDesc.Metadata,
}

func exportHandler(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	raw := new(emptypb.Empty)
	if err := dec(raw); err != nil {
		return nil, err
	}
	t := srv.(*traceService)
	handle := func(ctx context.Context, req any) (any, error) {
		return t.exportRaw(ctx, req.(*emptypb.Empty).ProtoReflect().GetUnknown())
	}
	if interceptor == nil {
		return handle(ctx, raw)
	}
	return interceptor(ctx, raw, &grpc.UnaryServerInfo{Server: srv, FullMethod: collpb.TraceService_Export_FullMethodName}, handle)
}

// exportRaw journals the request whose wire bytes are body.
func (t *traceService) exportRaw(ctx context.Context, body []byte) (*collpb.ExportTraceServiceResponse, error) {
	if tr, ok := store.TranscodeJSON(make([]byte, 0, 2*len(body)+1024), body, badIDs); ok {
		return t.append(ctx, store.Batch{SpansJSON: tr.Line, NSpans: tr.Spans}, tr.Rejected, rejectMessage(tr.Rejected, tr.FirstName, tr.FirstWhy))
	}
	req := &collpb.ExportTraceServiceRequest{}
	if err := proto.Unmarshal(body, req); err != nil {
		return nil, status.Error(codes.InvalidArgument, "lifeline: bad OTLP ExportTraceServiceRequest: "+err.Error())
	}
	return t.Export(ctx, req)
}

// grpcError is the status an Append error answers: RESOURCE_EXHAUSTED for a full queue and
// UNAVAILABLE for a server shutting down (or a request that ended first), both with a
// google.rpc.RetryInfo detail of RetryAfter seconds. The detail is what makes exporters retry
// RESOURCE_EXHAUSTED: the OTLP specification has a client retry it only when the server says
// it can recover (RetryInfo), and the OpenTelemetry Go exporter and the Collector's otlp
// exporter drop the batch without it.
func grpcError(err error) error {
	var st *status.Status
	switch {
	case errors.Is(err, store.ErrBusy):
		st = status.New(codes.ResourceExhausted, "lifeline: the write queue is full; retry later")
	case errors.Is(err, store.ErrClosed):
		st = status.New(codes.Unavailable, "lifeline: shutting down; retry later")
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		st = status.New(codes.Unavailable, "lifeline: request ended before the batch was on disk")
	default:
		return status.Error(codes.Internal, "lifeline: "+err.Error())
	}
	p := st.Proto()
	p.Details = append(p.Details, retryInfo(RetryAfter))
	return status.FromProto(p).Err()
}

// retryInfo is a google.rpc.RetryInfo{retry_delay: seconds} detail, encoded by hand (field 1,
// a google.protobuf.Duration whose field 1 is the seconds): the message's Go type lives in a
// module this one uses only indirectly.
func retryInfo(seconds int64) *anypb.Any {
	d := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), uint64(seconds))
	v := protowire.AppendBytes(protowire.AppendTag(nil, 1, protowire.BytesType), d)
	return &anypb.Any{TypeUrl: "type.googleapis.com/google.rpc.RetryInfo", Value: v}
}

// Export journals one batch and answers once it is on disk.
func (t *traceService) Export(ctx context.Context, req *collpb.ExportTraceServiceRequest) (*collpb.ExportTraceServiceResponse, error) {
	rejected, why := validate(req)
	return t.append(ctx, store.Batch{Spans: req}, rejected, why)
}

func (t *traceService) append(ctx context.Context, b store.Batch, rejected int, why string) (*collpb.ExportTraceServiceResponse, error) {
	if rejected > 0 {
		t.st.CountRejected(rejected)
	}
	if err := t.st.Append(ctx, b); err != nil {
		return nil, grpcError(err)
	}
	resp := &collpb.ExportTraceServiceResponse{}
	if rejected > 0 {
		resp.PartialSuccess = &collpb.ExportTracePartialSuccess{RejectedSpans: int64(rejected), ErrorMessage: why}
	}
	return resp, nil
}
