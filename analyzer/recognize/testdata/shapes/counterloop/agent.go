// Package counterloop runs a condition-less loop bounded by a counter it compares with a local
// limit: at the limit it asks once more for a final answer and returns it.
package counterloop

import (
	"context"

	"example.com/shapes/llm"
)

// Agent answers with tools.
type Agent struct {
	client *llm.Client
	tools  map[string]func(string) string
}

// New returns an agent.
func New(c *llm.Client, tools map[string]func(string) string) *Agent {
	return &Agent{client: c, tools: tools}
}

func (a *Agent) final(ctx context.Context, msgs []llm.Message) (string, error) {
	msgs = append(msgs, llm.Message{Role: "user", Content: "answer now, without tools"})
	resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
	if err != nil {
		return "", err
	}
	return resp.Choices[0].Message.Content, nil
}

// Ask answers q.
func (a *Agent) Ask(ctx context.Context, q string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: q}}
	limit := 14
	counter := 0
	for {
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		if counter == limit {
			return a.final(ctx, msgs)
		}
		for _, tc := range m.ToolCalls {
			fn, ok := a.tools[tc.Function.Name]
			if !ok {
				continue
			}
			msgs = append(msgs, llm.Message{Role: "tool", ToolCallID: tc.ID, Content: fn(tc.Function.Arguments)})
		}
		counter++
		continue
	}
}
