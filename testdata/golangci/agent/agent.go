// Package agent holds the fixture's lifecycle defects, each marked "finding: CHECK", and the
// constructs that must not be reported, marked "no finding".
package agent

import (
	"context"
	"errors"

	"example.com/gclfixture/llm"
)

// Tool is inferred to be a tool interface.
type Tool interface {
	Name() string
	Call(ctx context.Context, args string) (string, error)
}

// Forever runs a turn loop with no bound and no cancellation check.
func Forever(ctx context.Context, m llm.Model, tools map[string]Tool) {
	for { // finding: unboundedloop loopcancel
		msg, err := m.Generate(ctx, nil)
		if err != nil {
			return
		}
		for _, c := range msg.ToolCalls {
			tools[c.Name].Call(ctx, c.Args) // finding: toolerror
		}
	}
}

// Steps is bounded but never checks cancellation between steps.
func Steps(ctx context.Context, m llm.Model, tools map[string]Tool, maxSteps int) error {
	for step := 0; step < maxSteps; step++ { // finding: loopcancel
		msg, err := m.Generate(ctx, nil)
		if err != nil {
			return err
		}
		if len(msg.ToolCalls) == 0 {
			return nil
		}
		for _, c := range msg.ToolCalls {
			if _, err := tools[c.Name].Call(ctx, c.Args); err != nil {
				return err
			}
		}
	}
	return errors.New("max steps")
}

// ViaHelper reaches the model through llm.Ask, in another package.
func ViaHelper(ctx context.Context, m llm.Model) {
	for { // finding: unboundedloop loopcancel
		llm.Ask(ctx, m)
	}
}

// ViaProfile calls a model that only the profile names.
func ViaProfile(ctx context.Context, c *llm.Client) {
	for { // finding: unboundedloop loopcancel
		c.Complete(ctx, "next")
	}
}

// Batch ranges over a slice: bounded by its length.
func Batch(ctx context.Context, c *llm.Client, prompts []string) {
	for _, p := range prompts { // no finding
		c.Complete(ctx, p)
	}
}

// Daemon is suppressed with a directive.
func Daemon(ctx context.Context, c *llm.Client) {
	//lifeline:ignore all the daemon runs until the process exits
	for { // no finding
		c.Complete(ctx, "tick")
	}
}

// Run is a run record.
type Run struct{ ID string }

// RunOptions configure a new run.
type RunOptions struct {
	Input       string
	ParentRunID string
	Attempt     int
}

// StartRun creates a run.
//
//lifeline:run-start
func StartRun(ctx context.Context, opts RunOptions) (*Run, error) { return &Run{}, nil }

// Retry starts the run again after a failure without saying which run it retries.
func Retry(ctx context.Context, input string) (*Run, error) {
	var err error
	for attempt := 1; attempt <= 3; attempt++ {
		var run *Run
		run, err = StartRun(ctx, RunOptions{Input: input}) // finding: retryparent
		if err == nil {
			return run, nil
		}
	}
	return nil, err
}

// OnePerInput starts a run per input: not a retry.
func OnePerInput(ctx context.Context, inputs []string) {
	for _, in := range inputs {
		if _, err := StartRun(ctx, RunOptions{Input: in}); err != nil { // no finding
			continue
		}
	}
}

// Nolint is suppressed with golangci-lint's own directive.
func Nolint(ctx context.Context, c *llm.Client) {
	for { //nolint:lifeline // no finding: the loop runs until the process exits
		c.Complete(ctx, "tick")
	}
}
