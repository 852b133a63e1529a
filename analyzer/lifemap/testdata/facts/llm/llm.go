// Package llm wraps a model client: Ask calls the model, which only a fact exported by the
// lifecycle pass tells the agent package.
package llm

import "context"

// Reply is a model reply; ToolCalls makes Client.Complete an inferred model call.
type Reply struct {
	Text      string
	ToolCalls []string
}

// Client is a model client.
type Client interface {
	Complete(ctx context.Context, prompt string) (*Reply, error)
}

// Ask calls the model once.
func Ask(ctx context.Context, c Client, prompt string) (*Reply, error) {
	return c.Complete(ctx, prompt)
}
