// Package capturebound is a turn loop whose counter a closure captures (the retry callback
// names the iteration in its error): since Go 1.22 each iteration has its own copy of the
// counter, a fresh cell the post statement increments, and the bound iteration < maxIterations
// is still the loop's bound.
package capturebound

import (
	"context"
	"fmt"

	"example.com/shapes/llm"
)

// Tool runs one tool.
type Tool func(ctx context.Context, args string) (string, error)

// Agent runs the loop.
type Agent struct {
	client *llm.Client
	tools  map[string]Tool
}

func withRetry(op func() error) error {
	var err error
	for range 3 {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

// Run runs the agent until it answers or maxIterations is reached.
func (a *Agent) Run(ctx context.Context, input string, maxIterations int) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: input}}
	for iteration := 0; iteration < maxIterations; iteration++ {
		var resp *llm.Response
		op := func() error {
			r, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
			if err != nil {
				return fmt.Errorf("chat (iteration %d): %w", iteration+1, err)
			}
			resp = r
			return nil
		}
		if err := withRetry(op); err != nil {
			return "", err
		}
		msg := resp.Choices[0].Message
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		for _, tc := range msg.ToolCalls {
			tool, ok := a.tools[tc.Function.Name]
			if !ok {
				continue
			}
			out, err := tool(ctx, tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
		}
	}
	return "", fmt.Errorf("no answer after %d iterations", maxIterations)
}
