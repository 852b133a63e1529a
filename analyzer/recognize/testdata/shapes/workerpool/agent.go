// Package workerpool has two turn loops sharing one tool runner: Generate runs each tool call
// in turn, Stream reads the model's parts from an iterator in a helper, buffers the tool calls,
// sends them on a channel to a coordinator goroutine that starts one WaitGroup.Go per call.
// Parallel is a property of the path from the loop (the per-call launch on the way), not of the
// shared runner. A PrepareStep callback before the model call hands back a context: a context
// carries cancellation, not the decision, and is not followed as a result.
package workerpool

import (
	"context"
	"errors"
	"iter"
	"sync"

	"example.com/shapes/llm"
)

// Part is one streamed piece of a response.
type Part struct {
	Kind     string
	ToolName string
	Args     string
	ID       string
}

// Model is a provider.
type Model interface {
	Generate(ctx context.Context, msgs []llm.Message) (*llm.Response, error)
	Stream(ctx context.Context, msgs []llm.Message) (iter.Seq[Part], error)
}

// Tool runs one call.
type Tool interface {
	Name() string
	Run(ctx context.Context, args string) (string, error)
}

// Prepared is what a PrepareStep callback changes.
type Prepared struct{ Messages []llm.Message }

// Agent runs a model with tools.
type Agent struct {
	Model       Model
	Tools       []Tool
	PrepareStep func(ctx context.Context, step int) (context.Context, Prepared, error)
}

type request struct {
	name, args, id string
}

func (a *Agent) toolMap() map[string]Tool {
	m := map[string]Tool{}
	for _, t := range a.Tools {
		m[t.Name()] = t
	}
	return m
}

func runSafely(ctx context.Context, run func(context.Context, string) (string, error), args string) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("tool panicked")
		}
	}()
	return run(ctx, args)
}

func (a *Agent) executeOne(ctx context.Context, tools map[string]Tool, req request) llm.Message {
	t, ok := tools[req.name]
	if !ok {
		return llm.Message{Role: "tool", Content: "unknown tool", ToolCallID: req.id}
	}
	out, err := runSafely(ctx, t.Run, req.args)
	if err != nil {
		out = err.Error()
	}
	return llm.Message{Role: "tool", Content: out, ToolCallID: req.id}
}

// Generate runs the tools of each step one after the other.
func (a *Agent) Generate(ctx context.Context, msgs []llm.Message) (string, error) {
	tools := a.toolMap()
	for {
		resp, err := a.Model.Generate(ctx, msgs)
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, a.executeOne(ctx, tools, request{name: tc.Function.Name, args: tc.Function.Arguments, id: tc.ID}))
		}
	}
}

// Stream runs the tools of each step concurrently.
func (a *Agent) Stream(ctx context.Context, msgs []llm.Message) (string, error) {
	for step := 0; ; step++ {
		if a.PrepareStep != nil {
			next, prepared, err := a.PrepareStep(ctx, step)
			if err != nil {
				return "", err
			}
			ctx = next
			if prepared.Messages != nil {
				msgs = prepared.Messages
			}
		}
		parts, err := a.Model.Stream(ctx, msgs)
		if err != nil {
			return "", err
		}
		out, more, err := a.process(ctx, parts)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, out...)
		if !more {
			return "", nil
		}
	}
}

func (a *Agent) process(ctx context.Context, parts iter.Seq[Part]) ([]llm.Message, bool, error) {
	tools := a.toolMap()
	var pending []request
	for p := range parts {
		if p.Kind == "tool_call" {
			pending = append(pending, request{name: p.ToolName, args: p.Args, id: p.ID})
		}
	}
	if len(pending) == 0 {
		return nil, false, nil
	}
	ch := make(chan request, len(pending))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var results []llm.Message
	wg.Go(func() {
		for req := range ch {
			wg.Go(func() {
				m := a.executeOne(ctx, tools, req)
				mu.Lock()
				results = append(results, m)
				mu.Unlock()
			})
		}
	})
	for _, req := range pending {
		ch <- req
	}
	close(ch)
	wg.Wait()
	return results, true, nil
}
