// Package retryhelper retries one model call a few times (no pause) in a helper the turn
// loop calls: the retry loop is no turn loop, the loop that dispatches the tools is.
package retryhelper

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Agent runs turns.
type Agent struct {
	c     *llm.Client
	tools map[string]func(string) string
}

func (a *Agent) generate(ctx context.Context, msgs []llm.Message) (*llm.Response, error) {
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err == nil {
			return resp, nil
		}
		last = err
	}
	return nil, last
}

// Answer runs the turns.
func (a *Agent) Answer(ctx context.Context, prompt string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: prompt}}
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		resp, err := a.generate(ctx, msgs)
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: a.tools[tc.Function.Name](tc.Function.Arguments)})
		}
	}
	return "", errors.New("step limit")
}

// Ask retries inline, inside the turn loop.
func (a *Agent) Ask(ctx context.Context, prompt string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: prompt}}
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		var resp *llm.Response
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			resp, err = a.c.Chat(ctx, llm.Request{Messages: msgs})
			if err == nil {
				break
			}
		}
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: a.tools[tc.Function.Name](tc.Function.Arguments)})
		}
	}
	return "", errors.New("step limit")
}
