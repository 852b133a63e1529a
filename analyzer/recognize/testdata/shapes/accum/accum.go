// Package accum streams each completion chunk by chunk (a Next/Current stream), accumulates
// the tool calls the chunks carry into one message, and inspects that message: the turn loop of
// a streaming agent.
package accum

import (
	"context"

	"example.com/shapes/llm"
)

// Delta is one streamed chunk's tool call.
type Delta struct {
	ID   string
	Name string
	Args string
}

// Chunk is one streamed event.
type Chunk struct {
	Text  string
	Calls []Delta
}

// Stream is a server-sent-event stream.
type Stream struct{ cur Chunk }

// Next reads the next event.
func (s *Stream) Next() bool { return false }

// Current is the event read.
func (s *Stream) Current() Chunk { return s.cur }

// Err is the stream's error.
func (s *Stream) Err() error { return nil }

// API is a streaming client.
type API struct{}

// NewStreaming starts a streamed completion.
func (API) NewStreaming(ctx context.Context, msgs []llm.Message) *Stream { return &Stream{} }

// Tool is a callable tool.
type Tool interface {
	Name() string
	Run(ctx context.Context, args string) (string, error)
}

// Agent streams.
type Agent struct {
	api   API
	tools []Tool
	Max   int
}

// Run streams turns until the model stops calling tools.
func (a *Agent) Run(ctx context.Context, msgs []llm.Message, out chan<- string) error {
	for i := 0; i < a.Max; i++ {
		stream := a.api.NewStreaming(ctx, msgs)
		var reply llm.Message
		for stream.Next() {
			ch := stream.Current()
			reply.Content += ch.Text
			out <- ch.Text
			for _, d := range ch.Calls {
				if d.Name != "" {
					reply.ToolCalls = append(reply.ToolCalls, llm.ToolCall{ID: d.ID, Function: llm.Function{Name: d.Name}})
				}
				if n := len(reply.ToolCalls); n > 0 {
					reply.ToolCalls[n-1].Function.Arguments += d.Args
				}
			}
		}
		if err := stream.Err(); err != nil {
			return err
		}
		if len(reply.ToolCalls) == 0 {
			return nil
		}
		msgs = append(msgs, reply)
		for _, tc := range reply.ToolCalls {
			var found Tool
			for _, t := range a.tools {
				if t.Name() == tc.Function.Name {
					found = t
					break
				}
			}
			if found == nil {
				continue
			}
			res, err := found.Run(ctx, tc.Function.Arguments)
			if err != nil {
				res = err.Error()
			}
			msgs = append(msgs, llm.Message{Role: "tool", Content: res, ToolCallID: tc.ID})
		}
	}
	return nil
}
