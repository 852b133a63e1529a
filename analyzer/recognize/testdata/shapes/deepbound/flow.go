// Package deepbound checks its optional limits two calls below the loop: an invocation's
// call counter behind an early-return guard (limit <= 0 means unlimited) that returns a stop
// error, and a runner's iteration limit whose helper hands back no request at the limit.
package deepbound

import (
	"context"
	"fmt"

	"example.com/shapes/llm"
)

// StopError ends a flow early.
type StopError struct{ Msg string }

func (e *StopError) Error() string { return e.Msg }

// NewStopError returns a stop error.
func NewStopError(msg string) error { return &StopError{Msg: msg} }

// Invocation is one run's state.
type Invocation struct {
	MaxLLMCalls int
	llmCalls    int
	msgs        []llm.Message
}

// IncLLMCallCount counts a model call and enforces the optional limit.
func (inv *Invocation) IncLLMCallCount() error {
	limit := inv.MaxLLMCalls
	if limit <= 0 {
		return nil
	}
	inv.llmCalls++
	if inv.llmCalls > limit {
		return NewStopError(fmt.Sprintf("max LLM calls (%d) exceeded", limit))
	}
	return nil
}

// Flow runs invocations.
type Flow struct {
	c     *llm.Client
	tools map[string]func(string) string
}

func (f *Flow) before(inv *Invocation) error {
	if err := inv.IncLLMCallCount(); err != nil {
		return fmt.Errorf("before model: %w", err)
	}
	return nil
}

// Run runs the flow.
func (f *Flow) Run(ctx context.Context, inv *Invocation) error {
	for {
		if err := f.before(inv); err != nil {
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
