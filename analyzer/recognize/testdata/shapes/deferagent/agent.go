// Package deferagent is a run entry with deferred tracing (its results go through result
// cells), a canned answer before the loop, a loop delegated to a helper, a bound set by a
// functional option with its default in the constructor, and a silent return at the bound.
package deferagent

import (
	"context"
	"errors"
	"fmt"

	"example.com/shapes/llm"
)

// Span is a tracing span.
type Span struct{}

// End ends the span.
func (Span) End() {}

// Agent runs the loop.
type Agent struct {
	c       *llm.Client
	tools   map[string]func(string) string
	maxIter int
	role    string
}

// Option configures an agent.
type Option func(*Agent)

// WithMaxIterations sets the bound.
func WithMaxIterations(n int) Option { return func(a *Agent) { a.maxIter = n } }

// New returns an agent with its defaults.
func New(c *llm.Client, opts ...Option) *Agent {
	a := &Agent{c: c, tools: map[string]func(string) string{}, maxIter: 2}
	for _, o := range opts {
		o(a)
	}
	return a
}

func (a *Agent) start() Span { return Span{} }

// Run runs the agent.
func (a *Agent) Run(ctx context.Context, input string) (string, error) {
	span := a.start()
	defer span.End()
	if input == "" {
		return "", errors.New("empty input")
	}
	if input == "who are you" {
		return a.role, nil
	}
	return a.loop(ctx, input)
}

func (a *Agent) loop(ctx context.Context, input string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: input}}
	last := ""
	for i := 0; i < a.maxIter; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", fmt.Errorf("chat: %w", err)
		}
		m := resp.Choices[0].Message
		last = m.Content
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = append(msgs, m)
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return last, nil
}
