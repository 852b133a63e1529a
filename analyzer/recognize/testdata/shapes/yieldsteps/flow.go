// Package yieldsteps runs each step as an iterator: the model's responses arrive through an
// iter.Seq2 that a wrapper re-yields, the step's body (a range-over-func body: a closure in
// SSA) hands each response to a helper that dispatches the tool calls by name, and the turn
// loop drains the step's events and leaves when the last one is final. The model result
// reaches the decision only through yield, into the bodies of the loops that drain it. The
// run's id is minted in the iterator's body (a prefix and a random text, stored in a field);
// a tool call's missing id is minted too, and is not a run's.
package yieldsteps

import (
	"context"
	"crypto/rand"
	"errors"
	"iter"

	"example.com/shapes/llm"
)

// Model streams responses.
type Model interface {
	Generate(ctx context.Context, req *llm.Request) iter.Seq2[*llm.Response, error]
}

// Tool runs one call.
type Tool interface {
	Name() string
	Run(ctx context.Context, args string) (string, error)
}

// Event is one thing a step produced.
type Event struct {
	RunID   string
	Resp    *llm.Response
	Results []llm.Message
}

type invocation struct{ invocationID string }

// Final reports whether the event ends the run: a response with no tool calls.
func (e *Event) Final() bool {
	if e.Resp == nil || len(e.Resp.Choices) == 0 {
		return false
	}
	return len(e.Resp.Choices[0].Message.ToolCalls) == 0
}

// Flow is a run's loop.
type Flow struct {
	Model Model
	Tools []Tool
}

// Run runs steps until a final event.
func (f *Flow) Run(ctx context.Context, msgs []llm.Message) iter.Seq2[*Event, error] {
	return func(yield func(*Event, error) bool) {
		inv := &invocation{invocationID: "r-" + rand.Text()}
		for {
			var last *Event
			for ev, err := range f.step(ctx, &msgs) {
				if err != nil {
					yield(nil, err)
					return
				}
				ev.RunID = inv.invocationID
				if !yield(ev, nil) {
					return
				}
				last = ev
			}
			if last == nil || last.Final() {
				return
			}
		}
	}
}

func (f *Flow) step(ctx context.Context, msgs *[]llm.Message) iter.Seq2[*Event, error] {
	return func(yield func(*Event, error) bool) {
		tools := map[string]Tool{}
		for _, t := range f.Tools {
			tools[t.Name()] = t
		}
		for resp, err := range f.call(ctx, &llm.Request{Messages: *msgs}) {
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(&Event{Resp: resp}, nil) {
				return
			}
			out, err := f.handle(ctx, tools, resp)
			if err != nil {
				yield(nil, err)
				return
			}
			*msgs = append(*msgs, out...)
			if !yield(&Event{Results: out}, nil) {
				return
			}
		}
	}
}

// call re-yields the model's responses.
func (f *Flow) call(ctx context.Context, req *llm.Request) iter.Seq2[*llm.Response, error] {
	return func(yield func(*llm.Response, error) bool) {
		if f.Model == nil {
			yield(nil, errors.New("no model"))
			return
		}
		for resp, err := range f.Model.Generate(ctx, req) {
			if !yield(resp, err) {
				return
			}
		}
	}
}

func (f *Flow) handle(ctx context.Context, tools map[string]Tool, resp *llm.Response) ([]llm.Message, error) {
	var out []llm.Message
	for _, tc := range resp.Choices[0].Message.ToolCalls {
		if tc.ID == "" {
			tc.ID = "call-" + rand.Text()
		}
		t, ok := tools[tc.Function.Name]
		if !ok {
			return nil, errors.New("unknown tool " + tc.Function.Name)
		}
		res, err := t.Run(ctx, tc.Function.Arguments)
		if err != nil {
			res = err.Error()
		}
		out = append(out, llm.Message{Role: "tool", Content: res, ToolCallID: tc.ID})
	}
	return out, nil
}
