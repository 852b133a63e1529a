// Package deepentry holds its turn loop two unexported calls below the exported method, with
// the model behind an interface and the tools in a registry.
package deepentry

import (
	"context"
	"fmt"
)

// ToolCall is one requested tool call.
type ToolCall struct {
	ID, Name, Args string
}

// Message is one conversation message.
type Message struct {
	Role, Content string
	ToolCalls     []ToolCall
}

// Provider answers.
type Provider interface {
	Complete(ctx context.Context, msgs []Message) (*Message, error)
}

// Tool runs.
type Tool interface {
	Name() string
	Call(ctx context.Context, args string) (string, error)
}

// Agent runs conversations.
type Agent struct {
	p     Provider
	tools []Tool
}

// New makes an agent.
func New(p Provider, tools ...Tool) *Agent { return &Agent{p: p, tools: tools} }

// Chat answers a prompt.
func (a *Agent) Chat(ctx context.Context, prompt string) (string, error) {
	out, err := a.prepare(ctx, []Message{{Role: "user", Content: prompt}})
	if err != nil {
		return "", fmt.Errorf("chat: %w", err)
	}
	return out, nil
}

func (a *Agent) prepare(ctx context.Context, msgs []Message) (string, error) {
	if len(msgs) == 0 {
		return "", fmt.Errorf("no messages")
	}
	return a.turns(ctx, msgs)
}

func (a *Agent) turns(ctx context.Context, msgs []Message) (string, error) {
	for {
		m, err := a.p.Complete(ctx, msgs)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, *m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			out := ""
			for _, t := range a.tools {
				if t.Name() == tc.Name {
					res, err := t.Call(ctx, tc.Args)
					if err != nil {
						continue
					}
					out = res
				}
			}
			msgs = append(msgs, Message{Role: "tool", Content: out})
		}
	}
}
