// Package invctx holds a turn loop only the structural recognizer finds (a concrete client
// whose reply nests its tool calls; the recognizer reads packages whose path has a dot), in the
// iterator body of a function that takes an invocation context: an interface that embeds
// context.Context, so a context is in scope.
package invctx

import (
	"context"
	"iter"
)

// InvocationContext is a framework's context for one invocation.
type InvocationContext interface {
	context.Context
	AgentName() string
}

type toolCall struct{ Name, Args string }

type llmMessage struct {
	Content   string
	ToolCalls []toolCall
}

type llmChoice struct{ Message llmMessage }

type llmResponse struct{ Choices []llmChoice }

type llmClient struct{}

func (c *llmClient) Chat(ctx context.Context, msgs []llmMessage) (*llmResponse, error) {
	return &llmResponse{}, nil
}

func invocationIter(ctx InvocationContext, c *llmClient, tools map[string]func(string) string) iter.Seq2[string, error] {
	return func(yield func(string, error) bool) {
		var msgs []llmMessage
		for { // want `turn loop never checks cancellation between steps`
			resp, err := c.Chat(ctx, msgs)
			if err != nil {
				yield("", err)
				return
			}
			m := resp.Choices[0].Message
			msgs = append(msgs, m)
			if len(m.ToolCalls) == 0 {
				yield(m.Content, nil)
				return
			}
			for _, tc := range m.ToolCalls {
				if t, ok := tools[tc.Name]; ok {
					msgs = append(msgs, llmMessage{Content: t(tc.Args)})
				}
			}
		}
	}
}
