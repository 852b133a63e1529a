// Package iteragent reads the model's answer from an iter.Seq2 and dispatches with a switch on
// the tool name; an unexported agent is returned as an exported interface.
package iteragent

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Agent answers questions.
type Agent interface {
	Ask(ctx context.Context, q string) (string, error)
}

type agent struct{ c *llm.Client }

// New returns an Agent.
func New(c *llm.Client) Agent { return &agent{c: c} }

func lookup(args string) string { return "found " + args }

func (a *agent) Ask(ctx context.Context, q string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: q}}
	for i := 0; i < 8; i++ {
		var last *llm.Response
		for resp, err := range a.c.Seq(ctx, llm.Request{Messages: msgs}) {
			if err != nil {
				return "", err
			}
			last = resp
		}
		m := last.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			switch tc.Function.Name {
			case "lookup":
				msgs = append(msgs, llm.Message{Role: "tool", Content: lookup(tc.Function.Arguments)})
			}
		}
	}
	return "", errors.New("too many steps")
}
