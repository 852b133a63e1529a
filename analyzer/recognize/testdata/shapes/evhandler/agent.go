// Package evhandler streams the model's events over a channel and hands each one to a helper
// that folds it into the reply (and leaves on an error event); the step then runs the tools
// the reply asks for, and the loop leaves when there were none.
package evhandler

import (
	"context"

	"example.com/shapes/llm"
)

// Event is one streamed event of a model response.
type Event struct {
	Kind  string
	Delta string
	Call  *llm.ToolCall
	Err   error
}

// Provider streams a model response.
type Provider interface {
	Stream(ctx context.Context, msgs []llm.Message) <-chan Event
}

// Tool is a named callable.
type Tool interface {
	Name() string
	Run(ctx context.Context, args string) (string, error)
}

// Reply is the assistant message a stream folds into.
type Reply struct {
	Text  string
	calls []llm.ToolCall
}

// AddToolCall records a tool call the model asks for.
func (r *Reply) AddToolCall(c llm.ToolCall) { r.calls = append(r.calls, c) }

// ToolCalls are the tool calls asked for so far.
func (r *Reply) ToolCalls() []llm.ToolCall { return r.calls }

// Agent runs steps.
type Agent struct {
	p     Provider
	tools []Tool
}

// Run loops until a step asks for no tool.
func (a *Agent) Run(ctx context.Context, msgs []llm.Message) ([]llm.Message, error) {
	for {
		reply, results, err := a.step(ctx, msgs)
		if err != nil {
			return msgs, err
		}
		msgs = append(msgs, llm.Message{Role: "assistant", Content: reply.Text, ToolCalls: reply.ToolCalls()})
		if len(results) == 0 {
			return msgs, nil
		}
		msgs = append(msgs, results...)
	}
}

func (a *Agent) step(ctx context.Context, msgs []llm.Message) (*Reply, []llm.Message, error) {
	reply := &Reply{}
	for ev := range a.p.Stream(ctx, msgs) {
		if err := handle(reply, ev); err != nil {
			return reply, nil, err
		}
	}
	var results []llm.Message
	for _, c := range reply.ToolCalls() {
		for _, t := range a.tools {
			if t.Name() == c.Function.Name {
				out, err := t.Run(ctx, c.Function.Arguments)
				if err != nil {
					out = err.Error()
				}
				results = append(results, llm.Message{Role: "tool", Content: out, ToolCallID: c.ID})
			}
		}
	}
	return reply, results, nil
}

// handle folds one event into the reply; an error event ends the step.
func handle(r *Reply, ev Event) error {
	switch ev.Kind {
	case "error":
		return ev.Err
	case "delta":
		r.Text += ev.Delta
	case "tool":
		r.AddToolCall(*ev.Call)
	}
	return nil
}
