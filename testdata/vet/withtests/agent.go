// Package agent has a lifecycle defect in a source file, in an in-package test file and in an
// external test file: go vet -vettool and lifeline vet each report the three, each once.
package agent

import "context"

// Message carries tool calls, so a method returning it is inferred to be a model call.
type Message struct{ ToolCalls []string }

// Model is inferred to be a model.
type Model interface {
	Generate(ctx context.Context, msgs []string) (*Message, error)
}

// Loop never stops.
func Loop(ctx context.Context, m Model) {
	for {
		m.Generate(ctx, nil)
	}
}
