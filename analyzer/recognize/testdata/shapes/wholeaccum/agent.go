// Package wholeaccum folds each streamed event into the final message with a method that
// replaces the whole receiver (*m = ev.Message, with the event spilled to a local because a
// pointer method of it is called): the message then holds the result, and a helper dispatches
// its tool calls by name.
package wholeaccum

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Event is one streamed event.
type Event struct {
	Kind    string
	Message Message
}

// IsStart reports whether the event starts the message.
func (e *Event) IsStart() bool { return e.Kind == "start" }

// Message is the message being built.
type Message struct {
	Content   string
	ToolCalls []llm.ToolCall
}

// Accumulate folds an event into the message.
func (m *Message) Accumulate(ev Event) error {
	if ev.IsStart() {
		*m = ev.Message
		return nil
	}
	if ev.Kind == "ping" {
		return nil
	}
	return errors.New("unknown event " + ev.Kind)
}

// Stream is a server-sent event stream.
type Stream interface {
	Next() bool
	Current() Event
	Err() error
}

// Client opens streams.
type Client interface {
	Open(ctx context.Context, msgs []llm.Message) Stream
}

// Runner runs the loop.
type Runner struct {
	C     Client
	Tools map[string]func(string) string
}

// Run runs steps until the model stops asking for tools.
func (r *Runner) Run(ctx context.Context, msgs []llm.Message) (string, error) {
	for {
		st := r.C.Open(ctx, msgs)
		final := &Message{}
		for st.Next() {
			if err := final.Accumulate(st.Current()); err != nil {
				return "", err
			}
		}
		if err := st.Err(); err != nil {
			return "", err
		}
		msgs = append(msgs, llm.Message{Role: "assistant", Content: final.Content, ToolCalls: final.ToolCalls})
		out, done := r.handle(final)
		if done {
			return final.Content, nil
		}
		msgs = append(msgs, out...)
	}
}

func (r *Runner) handle(m *Message) ([]llm.Message, bool) {
	if len(m.ToolCalls) == 0 {
		return nil, true
	}
	var out []llm.Message
	for _, tc := range m.ToolCalls {
		if t, ok := r.Tools[tc.Function.Name]; ok {
			out = append(out, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
		}
	}
	return out, false
}
