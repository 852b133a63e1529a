// Package eventloop is a runtime shaped like a container vendor's agent CLI
// (docker/docker-agent, vvoland/cagent@039447f pkg/runtime/loop.go:75-330 RunStream, Run;
// streaming.go, tool_dispatch.go): RunStream starts the loop in a goroutine and returns the
// event channel; the loop leaves when the streamed result says the model stopped (a bool the
// stream handler sets from the finish reason), not on an empty tool-call list; the tool calls
// are handed to a helper every step (an empty list runs nothing) that looks each up in a map
// of handlers by name and appends the results to the session the next step reads; failures
// are sent as error events and the goroutine returns; at the optional bound the loop waits on
// a resume channel (approve raises the bound, reject stops with a message).
package eventloop

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// ToolCall is a call the model asked for.
type ToolCall struct {
	ID, Name, Arguments string
}

// Message is one message of the session.
type Message struct {
	Role, Content string
	Calls         []ToolCall
	CallID        string
}

// Session holds the conversation.
type Session struct {
	ID             string
	MaxIterations  int
	NonInteractive bool
	messages       []Message
}

// Add appends a message.
func (s *Session) Add(m Message) { s.messages = append(s.messages, m) }

// Messages returns the conversation so far.
func (s *Session) Messages() []Message { return s.messages }

// Chunk is one streamed delta.
type Chunk struct {
	Content      string
	Calls        []ToolCall
	FinishReason string
}

// Stream yields chunks until io.EOF.
type Stream interface {
	Recv() (Chunk, error)
}

// Provider is a model.
type Provider interface {
	CreateChatCompletionStream(ctx context.Context, msgs []Message) (Stream, error)
}

// Event is sent to the UI.
type Event interface{ isEvent() }

// ErrorEvent reports a failure.
type ErrorEvent struct{ Err string }

// TextEvent carries text.
type TextEvent struct{ Text string }

func (ErrorEvent) isEvent() {}
func (TextEvent) isEvent()  {}

// ResumeRequest is the user's answer at the bound.
type ResumeRequest struct{ Approve bool }

// ToolHandler runs one tool.
type ToolHandler func(ctx context.Context, sess *Session, call ToolCall) (string, error)

// Runtime runs an agent.
type Runtime struct {
	model    Provider
	toolMap  map[string]ToolHandler
	resumeCh chan ResumeRequest
}

// New makes a runtime.
func New(p Provider, tools map[string]ToolHandler) *Runtime {
	return &Runtime{model: p, toolMap: tools, resumeCh: make(chan ResumeRequest)}
}

type streamResult struct {
	Content string
	Calls   []ToolCall
	Stopped bool
}

// RunStream starts the loop and returns its events.
func (r *Runtime) RunStream(ctx context.Context, sess *Session) <-chan Event {
	events := make(chan Event, 128)
	go func() {
		defer close(events)
		iteration := 0
		maxIterations := sess.MaxIterations
		for {
			if maxIterations > 0 && iteration >= maxIterations {
				if sess.NonInteractive {
					sess.Add(Message{Role: "assistant", Content: "stopped at the iteration limit"})
					return
				}
				select {
				case req := <-r.resumeCh:
					if !req.Approve {
						sess.Add(Message{Role: "assistant", Content: "stopped at the iteration limit"})
						return
					}
					maxIterations = iteration + 10
				case <-ctx.Done():
					return
				}
			}
			iteration++
			if err := ctx.Err(); err != nil {
				return
			}
			res, err := r.stream(ctx, sess.Messages())
			if err != nil {
				if errors.Is(err, context.Canceled) {
					return
				}
				events <- ErrorEvent{Err: err.Error()}
				return
			}
			sess.Add(Message{Role: "assistant", Content: res.Content, Calls: res.Calls})
			if res.Content != "" {
				events <- TextEvent{Text: res.Content}
			}
			r.processToolCalls(ctx, sess, res.Calls, events)
			if res.Stopped {
				break
			}
		}
	}()
	return events
}

// Run runs the loop to its end and returns the session's messages.
func (r *Runtime) Run(ctx context.Context, sess *Session) ([]Message, error) {
	for ev := range r.RunStream(ctx, sess) {
		if e, ok := ev.(ErrorEvent); ok {
			return nil, fmt.Errorf("%s", e.Err)
		}
	}
	return sess.Messages(), nil
}

// stream asks the model and gathers the streamed reply.
func (r *Runtime) stream(ctx context.Context, msgs []Message) (streamResult, error) {
	st, err := r.model.CreateChatCompletionStream(ctx, msgs)
	if err != nil {
		return streamResult{}, fmt.Errorf("creating stream: %w", err)
	}
	var res streamResult
	for {
		ch, err := st.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return streamResult{}, fmt.Errorf("receiving: %w", err)
		}
		res.Content += ch.Content
		res.Calls = append(res.Calls, ch.Calls...)
		if ch.FinishReason == "stop" {
			res.Stopped = true
		}
	}
	return res, nil
}

// processToolCalls runs the calls one by one and appends their results to the session.
func (r *Runtime) processToolCalls(ctx context.Context, sess *Session, calls []ToolCall, events chan Event) {
	for _, call := range calls {
		h, ok := r.toolMap[call.Name]
		if !ok {
			sess.Add(Message{Role: "tool", CallID: call.ID, Content: "unknown tool " + call.Name})
			continue
		}
		out, err := h(ctx, sess, call)
		if err != nil {
			events <- ErrorEvent{Err: err.Error()}
			out = "error: " + err.Error()
		}
		sess.Add(Message{Role: "tool", CallID: call.ID, Content: out})
	}
}
