// Package loopagent is a turn loop on a concrete SDK client: a body counter bound, a map
// dispatch by tool name, tool results appended to the next request.
package loopagent

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Tool runs one tool.
type Tool func(ctx context.Context, args string) (string, error)

// Agent runs the loop.
type Agent struct {
	client   *llm.Client
	tools    map[string]Tool
	MaxTurns int
}

// ErrMaxTurns is returned at the bound.
var ErrMaxTurns = errors.New("max turns reached")

// New returns an agent with its defaults.
func New(c *llm.Client) *Agent {
	return &Agent{client: c, tools: map[string]Tool{}, MaxTurns: 12}
}

// Run runs the agent until it answers.
func (a *Agent) Run(ctx context.Context, input string) (string, error) {
	if input == "" {
		return "", errors.New("empty input")
	}
	msgs := []llm.Message{{Role: "user", Content: input}}
	turn := 0
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		if turn >= a.MaxTurns {
			return "", ErrMaxTurns
		}
		turn++
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
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
				msgs = append(msgs, llm.Message{Role: "tool", Content: "unknown tool", ToolCallID: tc.ID})
				continue
			}
			out, err := tool(ctx, tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
		}
	}
}
