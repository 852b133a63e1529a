// Package subagent lets a tool run another agent: the parent's turn loop dispatches to Tool
// implementations, one of which runs a child agent with its own turn loop. The child's loop is
// a child run's, not one of the parent's.
package subagent

import (
	"context"

	"example.com/shapes/llm"
)

// Tool is a named callable.
type Tool interface {
	Call(ctx context.Context, args string) (string, error)
}

// Agent runs a conversation with tools.
type Agent struct {
	c     *llm.Client
	tools map[string]Tool
}

// Run loops until the model answers.
func (a *Agent) Run(ctx context.Context, prompt string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: prompt}}
	for {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			t, ok := a.tools[tc.Function.Name]
			if !ok {
				continue
			}
			out, err := t.Call(ctx, tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
		}
	}
}

// Runnable is anything that answers a prompt: an Agent, run at the top by Serve and handed to
// a Researcher as one of its helpers.
type Runnable interface {
	Run(ctx context.Context, prompt string) (string, error)
}

// Serve answers a request with r.
func Serve(ctx context.Context, r Runnable, q string) (string, error) { return r.Run(ctx, q) }

// Researcher is the child agent: its own turn loop over its own tools.
type Researcher struct {
	c       *llm.Client
	lookup  map[string]func(string) string
	helpers map[string]Runnable
}

// Research loops until the model answers.
func (r *Researcher) Research(ctx context.Context, topic string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: topic}}
	for {
		resp, err := r.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			if fn, ok := r.lookup[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: fn(tc.Function.Arguments), ToolCallID: tc.ID})
				continue
			}
			if h, ok := r.helpers[tc.Function.Name]; ok {
				out, _ := h.Run(ctx, tc.Function.Arguments)
				msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
			}
		}
	}
}

// Delegate is a tool that hands its task to a child agent.
type Delegate struct{ Child *Researcher }

// Call runs the child agent.
func (d *Delegate) Call(ctx context.Context, args string) (string, error) {
	return d.Child.Research(ctx, args)
}

// Ask runs a one-off question through a delegate tool only: the loop it reaches is the child's.
func Ask(ctx context.Context, d *Delegate, q string) (string, error) {
	return d.Call(ctx, q)
}
