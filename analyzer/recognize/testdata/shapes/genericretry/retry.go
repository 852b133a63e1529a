// Package genericretry is a turn loop whose model call is wrapped in a generic retry helper
// (Retry[T]) and whose tool calls run through a generic Map[T, U]; a second agent is itself
// generic over its model and tool types, so its calls go through type-parameter values.
package genericretry

import (
	"context"
	"errors"
	"time"
)

// ToolCall is a tool call the model asked for.
type ToolCall struct {
	Name string
	Args Args
}

// Message is a chat message.
type Message struct {
	Role    string
	Content string
}

// Reply is the model's answer.
type Reply struct {
	Content   string
	ToolCalls []ToolCall
}

// Client is a provider client.
type Client interface {
	Complete(ctx context.Context, msgs []Message) (*Reply, error)
}

// Args are a tool call's arguments.
type Args string

// Tool runs one tool.
type Tool interface {
	Run(ctx context.Context, args Args) (string, error)
}

// Retry calls fn up to attempts times, waiting between failures.
func Retry[T any](ctx context.Context, attempts int, fn func() (T, error)) (T, error) {
	var zero T
	var err error
	for i := 0; i < attempts; i++ {
		var v T
		if v, err = fn(); err == nil {
			return v, nil
		}
		select {
		case <-ctx.Done():
			return zero, ctx.Err()
		case <-time.After(time.Duration(i+1) * 100 * time.Millisecond):
		}
	}
	return zero, err
}

// Map applies f to every element.
func Map[T, U any](xs []T, f func(T) U) []U {
	out := make([]U, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}

// ErrMaxSteps is returned at the bound.
var ErrMaxSteps = errors.New("max steps reached")

// Agent runs a turn loop.
type Agent struct {
	client   Client
	tools    map[string]Tool
	MaxSteps int
}

// Run runs the agent until the model answers without tool calls.
func (a *Agent) Run(ctx context.Context, input string) (string, error) {
	msgs := []Message{{Role: "user", Content: input}}
	for step := 0; step < a.MaxSteps; step++ {
		reply, err := Retry(ctx, 3, func() (*Reply, error) {
			return a.client.Complete(ctx, msgs)
		})
		if err != nil {
			return "", err
		}
		if len(reply.ToolCalls) == 0 {
			return reply.Content, nil
		}
		msgs = append(msgs, Message{Role: "assistant", Content: reply.Content})
		results := Map(reply.ToolCalls, func(tc ToolCall) Message {
			out, err := a.tools[tc.Name].Run(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			return Message{Role: "tool", Content: out}
		})
		msgs = append(msgs, results...)
	}
	return "", ErrMaxSteps
}

// TypedAgent is an agent generic over its client and tool types.
type TypedAgent[C Client, T Tool] struct {
	client C
	tools  map[string]T
	Max    int
}

// Run runs the typed agent's turn loop.
func (a *TypedAgent[C, T]) Run(ctx context.Context, input string) (string, error) {
	msgs := []Message{{Role: "user", Content: input}}
	for i := 0; i < a.Max; i++ {
		reply, err := a.client.Complete(ctx, msgs)
		if err != nil {
			return "", err
		}
		if len(reply.ToolCalls) == 0 {
			return reply.Content, nil
		}
		for _, tc := range reply.ToolCalls {
			t, ok := a.tools[tc.Name]
			if !ok {
				msgs = append(msgs, Message{Role: "tool", Content: "unknown tool"})
				continue
			}
			out, err := t.Run(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, Message{Role: "tool", Content: out})
		}
	}
	return "", ErrMaxSteps
}
