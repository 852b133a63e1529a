package branchstep

import (
	"context"
	"fmt"
)

// Stream is a streamed reply.
type Stream interface {
	Recv() (*Message, error)
}

// Client is a provider client with a blocking and a streaming call.
type Client interface {
	Complete(ctx context.Context, msgs []Message) (*Message, error)
	CompleteStream(ctx context.Context, msgs []Message) (*Message, error)
}

// Loop asks the client in place, streamed or not, in the two branches of an if.
type Loop struct {
	Client Client
	Tools  map[string]func(ctx context.Context, args string) (string, error)
	Stream bool
	Limit  int
}

// Answer answers prompt.
func (l *Loop) Answer(ctx context.Context, prompt string) (string, error) {
	msgs := []Message{{Role: "user", Content: prompt}}
	for turn := 0; turn < l.Limit; turn++ {
		var r *Message
		var err error
		if l.Stream {
			r, err = l.Client.CompleteStream(ctx, msgs)
		} else {
			r, err = l.Client.Complete(ctx, msgs)
		}
		if err != nil {
			return "", fmt.Errorf("turn %d: %w", turn, err)
		}
		msgs = append(msgs, *r)
		if len(r.ToolCalls) == 0 {
			return r.Content, nil
		}
		for _, tc := range r.ToolCalls {
			fn, ok := l.Tools[tc.Name]
			if !ok {
				continue
			}
			out, err := fn(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, Message{Role: "tool", CallID: tc.ID, Content: out})
		}
	}
	return "", fmt.Errorf("no answer after %d turns", l.Limit)
}
