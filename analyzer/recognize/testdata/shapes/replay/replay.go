// Package replay re-runs the tool calls stored in a transcript: a range over the finite slice
// of stored messages whose body asks a helper for each message's tool calls, leaves on a
// message without any and dispatches each call by name; nothing it runs is appended to the
// transcript, and the messages come from storage, not a model. A server loop polls for
// transcripts to replay. Not a turn loop, neither the range nor the poll loop around it.
package replay

import (
	"context"
	"errors"
	"time"
)

// Call is a stored tool call.
type Call struct {
	Name string
	Args string
}

// Message is a stored message.
type Message struct {
	Role  string
	Calls []Call
}

// Store holds transcripts.
type Store interface {
	Next(ctx context.Context) ([]Message, error)
}

// Tool runs one tool.
type Tool func(ctx context.Context, args string) (string, error)

// Replayer re-runs stored tool calls.
type Replayer struct {
	store Store
	tools map[string]Tool
}

func pendingCalls(m Message) []Call {
	if m.Role != "assistant" {
		return nil
	}
	return m.Calls
}

func (r *Replayer) replay(ctx context.Context, msgs []Message) (int, error) {
	n := 0
	for _, m := range msgs {
		calls := pendingCalls(m)
		if len(calls) == 0 {
			return n, nil
		}
		for _, c := range calls {
			tool, ok := r.tools[c.Name]
			if !ok {
				continue
			}
			if _, err := tool(ctx, c.Args); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}

// Serve polls the store and replays each transcript.
func (r *Replayer) Serve(ctx context.Context) error {
	for {
		msgs, err := r.store.Next(ctx)
		if errors.Is(err, context.Canceled) {
			return err
		}
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		if _, err := r.replay(ctx, msgs); err != nil {
			return err
		}
	}
}
