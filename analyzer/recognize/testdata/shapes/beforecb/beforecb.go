// Package beforecb is an agent whose Run hands back an event channel (shape of issue 10,
// trpc-agent's LLMAgent.Run): a before-run callback may refuse the run (an error) or answer in
// its place (a custom response carried back in an error value), both before the flow starts
// its loop in a goroutine. Run's error is a named result whose address a tracker keeps, and its
// context comes from a tracer: the error it returns is still the helper's.
package beforecb

import (
	"context"
	"errors"
	"fmt"

	"example.com/shapes/llm"
)

// Event is one event of a run.
type Event struct{ Content string }

// Callbacks run before the agent.
type Callbacks struct {
	Before func(ctx context.Context) (*Event, error)
}

// Flow runs the turn loop in a goroutine.
type Flow struct {
	c     *llm.Client
	tools map[string]func(string) string
}

// Run starts the loop and returns its events; it never fails.
func (f *Flow) Run(ctx context.Context, msgs []llm.Message) (<-chan *Event, error) {
	out := make(chan *Event, 8)
	go func() {
		defer close(out)
		for {
			resp, err := f.c.Chat(ctx, llm.Request{Messages: msgs})
			if err != nil {
				out <- &Event{Content: err.Error()}
				return
			}
			m := resp.Choices[0].Message
			msgs = append(msgs, m)
			if len(m.ToolCalls) == 0 {
				out <- &Event{Content: m.Content}
				return
			}
			for _, tc := range m.ToolCalls {
				if t, ok := f.tools[tc.Function.Name]; ok {
					msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
				}
			}
		}
	}()
	return out, nil
}

// customResponse carries a callback's answer back as an error: the run returns early.
type customResponse struct{ events <-chan *Event }

func (e *customResponse) Error() string { return "custom response" }

// Agent runs a flow behind callbacks.
type Agent struct {
	flow *Flow
	cb   *Callbacks
}

type tracker struct{ err *error }

func track(ctx context.Context, err *error) *tracker { return &tracker{err: err} }

func trace(ctx context.Context, name string) (context.Context, func()) { return ctx, func() {} }

func (a *Agent) execute(ctx context.Context, input string) (context.Context, <-chan *Event, error) {
	if a.cb != nil && a.cb.Before != nil {
		ev, err := a.cb.Before(ctx)
		if err != nil {
			return ctx, nil, fmt.Errorf("before callback: %w", err)
		}
		if ev != nil {
			ch := make(chan *Event, 1)
			ch <- ev
			close(ch)
			return ctx, nil, &customResponse{events: ch}
		}
	}
	events, err := a.flow.Run(ctx, []llm.Message{{Role: "user", Content: input}})
	if err != nil {
		return ctx, nil, err
	}
	return ctx, events, nil
}

// Run runs the agent on an input.
func (a *Agent) Run(ctx context.Context, input string) (e <-chan *Event, err error) {
	ctx, end := trace(ctx, "invoke_agent")
	_ = track(ctx, &err)
	ctx, events, err := a.execute(ctx, input)
	if err != nil {
		var custom *customResponse
		if errors.As(err, &custom) {
			end()
			return custom.events, nil
		}
		end()
		return nil, err
	}
	return events, nil
}
