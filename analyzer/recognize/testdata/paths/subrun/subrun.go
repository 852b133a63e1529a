// Package subrun runs programs whose tools are programs too: a tool runs as a child run through
// the same functions (a recursion through the tool dispatch), which is not a turn recursion;
// the turn loop is Runner.resume's for loop.
package subrun

import (
	"context"
	"errors"

	"example.com/paths/llm"
)

// Tool runs one tool call.
type Tool func(ctx context.Context, args string) (string, error)

// Runner runs programs.
type Runner struct {
	client *llm.Client
	tools  map[string]Tool
}

// New registers each program as a tool that runs it as a child run.
func New(c *llm.Client, programs []string) *Runner {
	r := &Runner{client: c, tools: map[string]Tool{}}
	for _, name := range programs {
		r.tools[name] = func(ctx context.Context, args string) (string, error) { return r.Run(ctx, name, args) }
	}
	return r
}

// Run runs the program named name.
func (r *Runner) Run(ctx context.Context, name, input string) (string, error) {
	if _, ok := r.tools[name]; !ok {
		return "", errors.New("no program " + name)
	}
	return r.resume(ctx, name, []llm.Message{{Role: "user", Content: input}})
}

// resume is the turn loop: each tool the model calls may be a program, run as a child run.
func (r *Runner) resume(ctx context.Context, name string, msgs []llm.Message) (string, error) {
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		resp, err := r.client.Chat(ctx, llm.Request{Model: name, Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			out, err := r.tools[tc.Function.Name](ctx, tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
		}
	}
}
