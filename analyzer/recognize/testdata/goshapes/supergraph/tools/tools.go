// Package tools is the tool interface (reduced from github.com/tmc/langchaingo/tools).
package tools

import "context"

// Tool is a tool the agent can run.
type Tool interface {
	Name() string
	Description() string
	Call(ctx context.Context, input string) (string, error)
}
