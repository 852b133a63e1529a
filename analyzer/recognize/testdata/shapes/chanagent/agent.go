// Package chanagent reads the model's answer from a channel stream and looks tools up by a
// name field.
package chanagent

import (
	"context"

	"example.com/shapes/llm"
)

// Tool is a named callable.
type Tool interface {
	Name() string
	Call(ctx context.Context, args string) (string, error)
}

// Runner runs turns.
type Runner struct {
	c     *llm.Client
	tools []Tool
}

// Run loops until the model stops asking for tools, at most max steps.
func (r *Runner) Run(ctx context.Context, msgs []llm.Message, max int) ([]llm.Message, error) {
	for step := 0; step < max; step++ {
		var calls []llm.ToolCall
		var text string
		for chunk := range r.c.Stream(ctx, llm.Request{Messages: msgs}) {
			if chunk.Err != nil {
				return msgs, chunk.Err
			}
			text += chunk.Delta
			calls = append(calls, chunk.ToolCalls...)
		}
		msgs = append(msgs, llm.Message{Role: "assistant", Content: text, ToolCalls: calls})
		if len(calls) == 0 {
			return msgs, nil
		}
		for _, call := range calls {
			for _, t := range r.tools {
				if t.Name() == call.Function.Name {
					out, err := t.Call(ctx, call.Function.Arguments)
					if err != nil {
						return msgs, err
					}
					msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: call.ID})
				}
			}
		}
	}
	return msgs, nil
}
