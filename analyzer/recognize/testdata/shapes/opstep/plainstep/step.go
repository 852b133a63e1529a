// Package plainstep is a Step over a plain chat client: it asks once, appends the reply to the
// shared state without testing it (the caller's loop decides from the state) and runs the
// tools the reply names from a map of funcs.
package plainstep

import (
	"context"

	"example.com/shapes/llm"
	"example.com/shapes/opstep"
)

// Func is a tool.
type Func func(ctx context.Context, args string) (string, error)

// Step asks the model once and runs the tools of its reply.
type Step struct {
	c     *llm.Client
	tools map[string]Func
}

// New returns a step.
func New(c *llm.Client, tools map[string]Func) *Step { return &Step{c: c, tools: tools} }

// Generate implements opstep.Step.
func (p *Step) Generate(ctx context.Context, s *opstep.State) error {
	var req llm.Request
	for _, m := range s.Messages {
		req.Messages = append(req.Messages, llm.Message{Role: m.Role, Content: m.Content, ToolCallID: m.CallID})
	}
	resp, err := p.c.Chat(ctx, req)
	if err != nil {
		return err
	}
	m := resp.Choices[0].Message
	out := opstep.Message{Role: "assistant", Content: m.Content}
	for _, tc := range m.ToolCalls {
		out.ToolCalls = append(out.ToolCalls, opstep.ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments})
	}
	s.Messages = append(s.Messages, out)
	for _, tc := range out.ToolCalls {
		res, err := p.tools[tc.Name](ctx, tc.Args)
		if err != nil {
			res = "error: " + err.Error()
		}
		s.Messages = append(s.Messages, opstep.Message{Role: "tool", CallID: tc.ID, Content: res})
	}
	return nil
}
