// Package openai implements core.Provider with a model: its Next calls the model (fw.Model),
// and its Step is handed to core.Drive as a core.Step.
package openai

import (
	"context"

	"core"
	"fw"
)

// Client is a provider backed by a model.
type Client struct{ M fw.Model }

// Next asks the model.
func (c *Client) Next(ctx context.Context, history []string) (*core.Reply, error) {
	msg, err := c.M.Generate(ctx, nil)
	if err != nil {
		return nil, err
	}
	r := &core.Reply{Text: msg.Text}
	for _, tc := range msg.ToolCalls {
		r.Pending = append(r.Pending, core.Invocation{Name: tc.Name, Input: tc.Args})
	}
	return r, nil
}

// Step asks the model through a function handed to core.Drive.
func (c *Client) Step(ctx context.Context, history []string) (*core.Reply, error) {
	return c.Next(ctx, history)
}

// Lister pages through a listing: no model.
type Lister struct{ pages []string }

// Page returns one page.
func (l *Lister) Page(ctx context.Context, token string) (*core.Reply, error) {
	return &core.Reply{Text: token}, nil
}

// Answer runs the engine and the state machine on the model.
func Answer(ctx context.Context, c *Client, r core.Runner) (string, error) {
	e := &core.Engine{P: c, R: r}
	if out, err := e.Run(ctx, "hi"); err != nil || out != "" {
		return out, err
	}
	_, _ = core.Walk(ctx, &Lister{})
	return core.Drive(ctx, c.Step, r)
}
