// Package core is an engine that drives a model it knows only by an interface: the
// implementations that call the model live in packages that import this one
// (providers/openai). Nothing in this package says that Provider.Next calls a model; the
// implementation does, so the engine's loop is a turn loop.
package core

import "context"

// Invocation is one thing the provider asked to run.
type Invocation struct{ Name, Input string }

// Reply is what the provider decided.
type Reply struct {
	Text    string
	Pending []Invocation
}

// Provider makes the next decision from the conversation.
type Provider interface {
	Next(ctx context.Context, history []string) (*Reply, error)
}

// Runner runs what the provider asked for.
type Runner interface {
	Execute(ctx context.Context, pending []Invocation) ([]string, error)
}

// Engine drives a provider and a runner.
type Engine struct {
	P Provider
	R Runner
}

// Run loops until the provider answers.
func (e *Engine) Run(ctx context.Context, input string) (string, error) {
	history := []string{input}
	for { // want `turn loop (around core.Provider.Next has no bound and no cancellation exit|never checks cancellation between steps)`
		r, err := e.P.Next(ctx, history)
		if err != nil {
			return "", err
		}
		if len(r.Pending) == 0 {
			return r.Text, nil
		}
		out, err := e.R.Execute(ctx, r.Pending)
		if err != nil {
			return "", err
		}
		history = append(history, out...)
	}
}

// Step is one step of a state machine the engine drives.
type Step func(ctx context.Context, history []string) (*Reply, error)

// Drive loops on a step function until it answers.
func Drive(ctx context.Context, step Step, r Runner) (string, error) {
	var history []string
	for { // want `turn loop (around core.Step has no bound and no cancellation exit|never checks cancellation between steps)`
		rep, err := step(ctx, history)
		if err != nil {
			return "", err
		}
		if len(rep.Pending) == 0 {
			return rep.Text, nil
		}
		out, err := r.Execute(ctx, rep.Pending)
		if err != nil {
			return "", err
		}
		history = append(history, out...)
	}
}

// Pager walks a paginated listing through the same kind of interface, whose implementations
// call no model: not a turn loop.
type Pager interface {
	Page(ctx context.Context, token string) (*Reply, error)
}

// Walk reads every page.
func Walk(ctx context.Context, p Pager) ([]string, error) {
	var out []string
	token := ""
	for {
		r, err := p.Page(ctx, token)
		if err != nil {
			return nil, err
		}
		out = append(out, r.Text)
		if len(r.Pending) == 0 {
			return out, nil
		}
		token = r.Pending[0].Input
	}
}
