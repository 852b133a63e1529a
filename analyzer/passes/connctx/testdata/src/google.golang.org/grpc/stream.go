// Package grpc is the part of google.golang.org/grpc (v1.76.0, stream.go) the connctx tests use:
// the ServerStream and ClientStream interfaces, with the same method sets.
package grpc

import (
	"context"

	"google.golang.org/grpc/metadata"
)

// ServerStream defines the server-side behavior of a streaming RPC.
type ServerStream interface {
	SetHeader(metadata.MD) error
	SendHeader(metadata.MD) error
	SetTrailer(metadata.MD)
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ClientStream defines the client-side behavior of a streaming RPC.
type ClientStream interface {
	Header() (metadata.MD, error)
	Trailer() metadata.MD
	CloseSend() error
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}
