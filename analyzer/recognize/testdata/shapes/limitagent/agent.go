// Package limitagent is a state machine whose optional call limit (0 means unlimited) is
// checked in a helper the loop calls; the helper returns a sentinel error at the limit.
package limitagent

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// ErrTooManyCalls is returned at the limit.
var ErrTooManyCalls = errors.New("too many llm calls")

// Invocation is one run's state.
type Invocation struct {
	MaxLLMCalls int
	calls       int
	msgs        []llm.Message
}

func (inv *Invocation) countCall() error {
	inv.calls++
	if inv.MaxLLMCalls > 0 && inv.calls > inv.MaxLLMCalls {
		return ErrTooManyCalls
	}
	return nil
}

// Flow runs an invocation.
type Flow struct {
	c     *llm.Client
	tools map[string]func(string) string
}

// Run runs the flow.
func (f *Flow) Run(ctx context.Context, inv *Invocation) error {
	for {
		if err := inv.countCall(); err != nil {
			return err
		}
		resp, err := f.c.Chat(ctx, llm.Request{Messages: inv.msgs})
		if err != nil {
			return err
		}
		m := resp.Choices[0].Message
		inv.msgs = append(inv.msgs, m)
		if len(m.ToolCalls) == 0 {
			return nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := f.tools[tc.Function.Name]; ok {
				inv.msgs = append(inv.msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
}
