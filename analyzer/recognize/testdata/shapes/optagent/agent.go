// Package optagent bounds its loop with an option whose default is set in another package.
package optagent

import (
	"context"

	"example.com/shapes/llm"
	"example.com/shapes/opts"
)

// Executor runs tools for the model.
type Executor struct {
	c     *llm.Client
	o     opts.Options
	tools map[string]func(context.Context, string) (string, error)
}

// NewExecutor applies the options.
func NewExecutor(c *llm.Client, os ...opts.Option) *Executor {
	return &Executor{c: c, o: opts.Apply(os...)}
}

// Execute runs the loop; 0 iterations means unlimited.
func (e *Executor) Execute(ctx context.Context, msgs []llm.Message) (string, error) {
	for i := 0; ; i++ {
		if e.o.MaxIterations > 0 && i >= e.o.MaxIterations {
			return "", nil
		}
		resp, err := e.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = append(msgs, m)
		for _, tc := range m.ToolCalls {
			if t, ok := e.tools[tc.Function.Name]; ok {
				out, _ := t(ctx, tc.Function.Arguments)
				msgs = append(msgs, llm.Message{Role: "tool", Content: out})
			}
		}
	}
}
