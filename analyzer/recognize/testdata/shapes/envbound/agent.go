// Package envbound takes its turn loops' default bounds from the environment, with constant
// fallbacks: a helper that reads os.Getenv, and a local overwritten from os.LookupEnv.
package envbound

import (
	"context"
	"errors"
	"os"
	"strconv"

	"example.com/shapes/llm"
)

// ErrMaxSteps is returned at the bound.
var ErrMaxSteps = errors.New("max steps reached")

func envInt(key string, def int) int {
	if v := os.Getenv(key); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

// Agent runs the loop.
type Agent struct {
	c        *llm.Client
	tools    map[string]func(string) string
	MaxSteps int
}

// New returns an agent whose bound AGENT_MAX_STEPS overrides.
func New(c *llm.Client) *Agent {
	return &Agent{c: c, tools: map[string]func(string) string{}, MaxSteps: envInt("AGENT_MAX_STEPS", 12)}
}

// Ask runs the agent until it answers.
func (a *Agent) Ask(ctx context.Context, input string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: input}}
	for i := 0; i < a.MaxSteps; i++ {
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
			if t, ok := a.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return "", ErrMaxSteps
}

// Runner runs the loop with a turn bound.
type Runner struct {
	c        *llm.Client
	tools    map[string]func(string) string
	MaxTurns int
}

// NewRunner returns a runner whose bound RUNNER_MAX_TURNS overrides.
func NewRunner(c *llm.Client) *Runner {
	limit := 8
	if v, ok := os.LookupEnv("RUNNER_MAX_TURNS"); ok {
		limit, _ = strconv.Atoi(v)
	}
	return &Runner{c: c, tools: map[string]func(string) string{}, MaxTurns: limit}
}

// Loop runs the runner until it answers.
func (r *Runner) Loop(ctx context.Context, input string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: input}}
	for turn := 0; turn < r.MaxTurns; turn++ {
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
			if t, ok := r.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return "", ErrMaxSteps
}
