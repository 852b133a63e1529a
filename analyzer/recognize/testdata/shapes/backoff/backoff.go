// Package backoff observes cancellation only while waiting to retry a failed call: the loop
// does not check it between steps.
package backoff

import (
	"context"
	"time"

	"example.com/shapes/llm"
)

// Loop runs turns.
func Loop(ctx context.Context, c *llm.Client, tools map[string]func(string) string, msgs []llm.Message) (string, error) {
	for {
		resp, err := c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: tools[tc.Function.Name](tc.Function.Arguments)})
		}
	}
}
