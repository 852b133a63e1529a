// Package stepper is a step-wise tool runner: each Step answers the previous reply's tool calls
// (in goroutines) and asks the model again; the reply is kept in the runner's state between
// steps, the decision (no tool calls: done) is made in a helper of the next step, and the loop
// that repeats the steps is the caller's.
package stepper

import (
	"context"
	"sync"

	"example.com/shapes/llm"
)

// Tool runs a tool.
type Tool interface {
	Exec(ctx context.Context, args string) (string, error)
}

// Runner runs the conversation step by step.
type Runner struct {
	svc   *llm.Client
	tools map[string]Tool
	msgs  []llm.Message
	last  *llm.Response
	done  bool
	count int
	Max   int
}

func (r *Runner) send(ctx context.Context) (*llm.Response, error) {
	return r.svc.Chat(ctx, llm.Request{Messages: r.msgs})
}

func (r *Runner) record(resp *llm.Response) {
	r.last = resp
	r.msgs = append(r.msgs, resp.Choices[0].Message)
}

func pending(resp *llm.Response) []llm.ToolCall {
	if len(resp.Choices) == 0 {
		return nil
	}
	return resp.Choices[0].Message.ToolCalls
}

func (r *Runner) prepare(ctx context.Context) bool {
	if r.done {
		return false
	}
	if r.last != nil {
		calls := pending(r.last)
		if len(calls) == 0 {
			r.done = true
			return false
		}
		r.msgs = append(r.msgs, r.runTools(ctx, calls)...)
	}
	if r.Max > 0 && r.count >= r.Max {
		r.done = true
		return false
	}
	r.count++
	return true
}

func (r *Runner) runTools(ctx context.Context, calls []llm.ToolCall) []llm.Message {
	out := make([]llm.Message, len(calls))
	var wg sync.WaitGroup
	for i, tc := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = r.exec(ctx, tc)
		}()
	}
	wg.Wait()
	return out
}

func (r *Runner) exec(ctx context.Context, tc llm.ToolCall) llm.Message {
	t, ok := r.tools[tc.Function.Name]
	if !ok {
		return llm.Message{Role: "tool", Content: "unknown tool", ToolCallID: tc.ID}
	}
	s, err := t.Exec(ctx, tc.Function.Arguments)
	if err != nil {
		s = err.Error()
	}
	return llm.Message{Role: "tool", Content: s, ToolCallID: tc.ID}
}

// Step runs one step: nil when the conversation is over.
func (r *Runner) Step(ctx context.Context) (*llm.Message, error) {
	if !r.prepare(ctx) {
		return nil, nil
	}
	resp, err := r.send(ctx)
	if err != nil {
		return nil, err
	}
	r.record(resp)
	return &resp.Choices[0].Message, nil
}

// RunToEnd steps until the conversation is over.
func (r *Runner) RunToEnd(ctx context.Context) (*llm.Message, error) {
	for {
		m, err := r.Step(ctx)
		if err != nil {
			return nil, err
		}
		if m == nil {
			return &r.last.Choices[0].Message, nil
		}
	}
}

// Each steps until the conversation is over, handing each reply to fn: a second driver of the
// same steps.
func (r *Runner) Each(ctx context.Context, fn func(*llm.Message)) error {
	for {
		m, err := r.Step(ctx)
		if err != nil {
			return err
		}
		if m == nil {
			return nil
		}
		fn(m)
	}
}
