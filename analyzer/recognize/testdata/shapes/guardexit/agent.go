// Package guardexit leaves its turn loop on the finish reason the provider reports: the
// returns are taken under tests of that value against literals, which say how the run ended.
package guardexit

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Finish reasons of the provider, as constants.
const (
	FinishAborted = "aborted"
	FinishLength  = "length"
)

// Agent runs the loop.
type Agent struct {
	c     *llm.Client
	tools map[string]func(string) string
}

// Ask runs the agent until it answers.
func (a *Agent) Ask(ctx context.Context, input string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: input}}
	for {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		ch := resp.Choices[0]
		if ch.FinishReason == "error" || ch.FinishReason == FinishAborted {
			return "", nil
		}
		switch ch.FinishReason {
		case FinishLength, "max_tokens":
			return ch.Message.Content, errors.New("truncated")
		case "tool_calls":
		}
		msgs = append(msgs, ch.Message)
		if len(ch.Message.ToolCalls) == 0 {
			return ch.Message.Content, nil
		}
		for _, tc := range ch.Message.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
}
