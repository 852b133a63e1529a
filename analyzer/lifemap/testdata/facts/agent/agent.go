// Package agent runs a turn loop whose model call is a helper of another package of the module.
package agent

import (
	"context"
	"strings"

	"example.com/facts/llm"
)

// Agent runs a model with tools.
type Agent struct {
	Client   llm.Client
	MaxSteps int
}

// Run is the agent's loop: it calls the model through llm.Ask.
func (a *Agent) Run(ctx context.Context, input string) (string, error) {
	prompt := input
	for step := 0; step < a.MaxSteps; step++ {
		r, err := llm.Ask(ctx, a.Client, prompt)
		if err != nil {
			return "", err
		}
		if len(r.ToolCalls) == 0 {
			return r.Text, nil
		}
		prompt = strings.Join(r.ToolCalls, ",")
	}
	return "", nil
}
