// Package fw is a stub framework: roles from directives and inference, facts for dependents.
package fw

import "context"

// Message carries tool calls.
type Message struct{ ToolCalls []string }

// Model is inferred to be a model.
type Model interface {
	Generate(ctx context.Context, prompt string) (*Message, error)
}

// Complete is a model call by directive.
//
//lifeline:model-call
func Complete(ctx context.Context, prompt string) (string, error) { return "", nil } // want Complete:`declared\(model_call\)`

// Ask calls the model: a model-call site for its callers.
func Ask(ctx context.Context, m Model) (*Message, error) { // want Ask:`lifecycle\(model\)`
	return m.Generate(ctx, "")
}

// Loop runs a bounded turn loop that checks cancellation.
func Loop(ctx context.Context, m Model, max int) error { // want Loop:`lifecycle\(model cancel loops=1 runs\)`
	for i := 0; i < max; i++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if _, err := Ask(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// Build returns a function that runs Loop later: it reaches the loop but does not run it (no
// "runs" in its fact).
func Build(m Model) func(ctx context.Context) error { // want Build:`lifecycle\(model cancel loops=1\)`
	return func(ctx context.Context) error { return Loop(ctx, m, 3) }
}
