// Package core is the agent loop of a small excerpt of github.com/godeps/agentsdk-go@v1.0.0
// (pkg/agent/agent.go:17-189, options.go:9-25): an infinite for loop that checks ctx.Err()
// and an optional MaxIterations (zero means no limit) at the top of each iteration, calls a
// Model interface that takes no messages (the adapter keeps the history) and returns the tool
// calls, and runs each call through a ToolExecutor interface, an error becoming a result.
package core

import (
	"context"
	"errors"
	"fmt"
)

// ErrMaxIterations is returned at the bound.
var ErrMaxIterations = errors.New("max iterations reached")

// Model produces the next output.
type Model interface {
	Generate(ctx context.Context, c *Context) (*ModelOutput, error)
}

// ToolExecutor performs a tool call emitted by the model.
type ToolExecutor interface {
	Execute(ctx context.Context, call ToolCall, c *Context) (ToolResult, error)
}

// ToolCall is one tool invocation request.
type ToolCall struct {
	ID    string
	Name  string
	Input map[string]any
}

// ToolResult is the outcome of a tool call.
type ToolResult struct {
	Name   string
	Output string
}

// ModelOutput is what Generate returns.
type ModelOutput struct {
	Content   string
	ToolCalls []ToolCall
	Done      bool
}

// Context carries the state of one execution.
type Context struct {
	Iteration   int
	ToolResults []ToolResult
}

// Options controls the agent; MaxIterations zero means no limit.
type Options struct {
	MaxIterations int
}

// Agent drives the loop.
type Agent struct {
	model Model
	tools ToolExecutor
	opts  Options
}

// New makes an agent.
func New(model Model, tools ToolExecutor, opts Options) (*Agent, error) {
	if model == nil {
		return nil, errors.New("agent: model is nil")
	}
	return &Agent{model: model, tools: tools, opts: opts}, nil
}

// Run executes the agent loop.
func (a *Agent) Run(ctx context.Context, c *Context) (*ModelOutput, error) {
	if a == nil {
		return nil, errors.New("agent is nil")
	}
	var last *ModelOutput
	iteration := 0
	for {
		if err := ctx.Err(); err != nil {
			return last, err
		}
		if a.opts.MaxIterations > 0 && iteration >= a.opts.MaxIterations {
			return last, ErrMaxIterations
		}
		c.Iteration = iteration
		out, err := a.model.Generate(ctx, c)
		if err != nil {
			return last, err
		}
		last = out
		if out.Done || len(out.ToolCalls) == 0 {
			return out, nil
		}
		for _, call := range out.ToolCalls {
			if a.tools == nil {
				return last, fmt.Errorf("tool executor is nil for call %s", call.Name)
			}
			res, err := a.tools.Execute(ctx, call, c)
			if err != nil {
				res.Output = fmt.Sprintf("Tool execution failed: %v", err)
			}
			c.ToolResults = append(c.ToolResults, res)
		}
		iteration++
	}
}
