// Package llm is the fixture's model layer: a model interface that structural inference
// recognizes (its method returns tool calls), a helper that calls it from another package
// (the lifecycle pass's facts carry the model call to the callers), and a client whose model
// call only the profile (profile.json) names.
package llm

import "context"

// Message carries tool calls.
type Message struct {
	Text      string
	ToolCalls []ToolCall
}

// ToolCall is one requested tool call.
type ToolCall struct{ Name, Args string }

// Model is inferred to be a model: Generate returns tool calls.
type Model interface {
	Generate(ctx context.Context, msgs []Message) (*Message, error)
}

// Ask calls the model once.
func Ask(ctx context.Context, m Model) (*Message, error) { return m.Generate(ctx, nil) }

// Client is a text-completion client; profile.json binds Complete to the model_call role.
type Client struct{}

// Complete completes a prompt.
func (*Client) Complete(ctx context.Context, prompt string) (string, error) { return "", nil }
