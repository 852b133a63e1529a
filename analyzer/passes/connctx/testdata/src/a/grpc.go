package a

import (
	"context"

	"fw"
	"google.golang.org/grpc"
)

// Chat_StreamServer is what protoc-gen-go-grpc generates for a bidirectional stream.
type Chat_StreamServer interface {
	Send(*fw.Message) error
	Recv() (*fw.Message, error)
	grpc.ServerStream
}

type chatServer struct{}

func (chatServer) Stream(stream Chat_StreamServer) error {
	go fw.StartRun(stream.Context(), fw.RunOptions{}) // want `run started with the gRPC stream's context: the stream ending`
	return nil
}

func (chatServer) Detached(stream Chat_StreamServer) error {
	go fw.StartRun(context.WithoutCancel(stream.Context()), fw.RunOptions{})
	return nil
}

// client: a client stream's context is the one the client opened it with.
func client(cs grpc.ClientStream) {
	fw.StartRun(cs.Context(), fw.RunOptions{})
}
