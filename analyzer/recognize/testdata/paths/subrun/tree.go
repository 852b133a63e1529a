package subrun

import (
	"context"
	"strings"

	"example.com/paths/llm"
)

// Tree runs a program with one model call; each tool the model asks for is another program,
// run as a child run that calls Tree again (NewTree registers them). The runs form a tree as
// deep as the programs nest; no run repeats its own step: there is no turn recursion.
func (r *Runner) Tree(ctx context.Context, name, input string) (string, error) {
	resp, err := r.client.Chat(ctx, llm.Request{Model: name, Messages: []llm.Message{{Role: "user", Content: input}}})
	if err != nil {
		return "", err
	}
	m := resp.Choices[0].Message
	if len(m.ToolCalls) == 0 {
		return m.Content, nil
	}
	var outs []string
	for _, tc := range m.ToolCalls {
		out, err := r.tools[tc.Function.Name](ctx, tc.Function.Arguments)
		if err != nil {
			return "", err
		}
		outs = append(outs, out)
	}
	return strings.Join(outs, "\n"), nil
}

// NewTree registers each program as a tool that runs it with Tree.
func NewTree(c *llm.Client, programs []string) *Runner {
	r := &Runner{client: c, tools: map[string]Tool{}}
	for _, name := range programs {
		r.tools[name] = func(ctx context.Context, args string) (string, error) { return r.Tree(ctx, name, args) }
	}
	return r
}
