// Package agent is a small agent for the lifecycle map tests.
package agent

import (
	"context"
	"errors"
	"sync"
)

// Reply is a model reply; ToolCalls makes Chat.Send an inferred model call.
type Reply struct {
	Text      string
	ToolCalls []string
}

// Chat is a model client.
type Chat interface {
	Send(ctx context.Context, history []string) (*Reply, error)
}

// Status is a run status.
type Status string

// Statuses.
const (
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// ErrTooManySteps is returned at the step bound.
var ErrTooManySteps = errors.New("agent: too many steps")

// Agent runs a chat model with tools.
type Agent struct {
	Chat Chat
	// MaxSteps bounds the loop.
	//
	//lifeline:bound 8
	MaxSteps int
	status   Status
}

// CallTool runs one tool.
//
//lifeline:tool-call
func CallTool(ctx context.Context, name string) (string, error) { return name, nil }

// NewRunID mints run ids.
//
//lifeline:run-id
func NewRunID() string { return "run-1" }

// Run is the agent's loop.
func (a *Agent) Run(ctx context.Context, input string) (string, error) {
	id := NewRunID()
	_ = id
	history := []string{input}
	for step := 0; step < a.MaxSteps; step++ {
		if err := ctx.Err(); err != nil {
			a.status = Cancelled
			return "", err
		}
		reply, err := a.Chat.Send(ctx, history)
		if err != nil {
			a.status = Failed
			return "", err
		}
		if len(reply.ToolCalls) == 0 {
			a.status = Completed
			return reply.Text, nil
		}
		var wg sync.WaitGroup
		for _, tc := range reply.ToolCalls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := CallTool(ctx, tc)
				if err != nil {
					out = "error: " + err.Error()
				}
				history = append(history, out)
			}()
		}
		wg.Wait()
	}
	a.status = Failed
	return "", ErrTooManySteps
}

// Think recurses until the model stops asking for tools or the depth runs out.
func Think(ctx context.Context, c Chat, history []string, depth, max int) (*Reply, error) {
	if depth >= max {
		return nil, errors.New("max recursion depth reached")
	}
	reply, err := c.Send(ctx, history)
	if err != nil || len(reply.ToolCalls) == 0 {
		return reply, err
	}
	out, err := CallTool(ctx, reply.ToolCalls[0])
	if err != nil {
		return nil, err
	}
	return Think(ctx, c, append(history, out), depth+1, max)
}
