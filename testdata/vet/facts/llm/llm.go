// Package llm reaches a model call through a helper: only its lifecycle facts tell a package
// that imports it that Ask calls the model.
package llm

import "context"

// complete calls the model.
//
//lifeline:model-call
func complete(ctx context.Context, prompt string) (string, error) {
	return prompt, ctx.Err()
}

// Ask asks the model through complete.
func Ask(ctx context.Context, prompt string) (string, error) {
	return complete(ctx, prompt)
}
