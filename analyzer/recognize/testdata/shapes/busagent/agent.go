// Package busagent runs its tools over channels: the turn loop sends each tool call the model
// asks for as a message on a channel, a dispatcher goroutine looks the tool up by name, runs
// it and sends the result on another channel, and the loop waits for each result in a select
// beside the context's Done channel and a timeout. The model is reached through an interface
// the agent embeds.
package busagent

import (
	"context"
	"errors"
	"time"
)

// Message is one chat message.
type Message struct {
	Role, Content, CallID string
}

// ToolCall is a call the model asks for.
type ToolCall struct {
	ID, Name, Args string
}

// Reply is what the model answers.
type Reply struct {
	Content   string
	ToolCalls []ToolCall
}

// Brain decides the next step.
type Brain interface {
	Think(ctx context.Context, msgs []Message) (*Reply, error)
}

// Tool is a named callable.
type Tool interface {
	Name() string
	Invoke(ctx context.Context, args string) (string, error)
}

type result struct {
	id, out string
	err     error
}

// ErrTooManySteps is returned when the loop hits its bound.
var ErrTooManySteps = errors.New("too many steps")

var errUnknownTool = errors.New("unknown tool")

// Dispatcher runs tool calls it reads from its inbox.
type Dispatcher struct {
	tools   map[string]Tool
	inbox   chan ToolCall
	results chan result
}

// NewDispatcher makes a dispatcher over tools.
func NewDispatcher(tools ...Tool) *Dispatcher {
	d := &Dispatcher{tools: map[string]Tool{}, inbox: make(chan ToolCall), results: make(chan result)}
	for _, t := range tools {
		d.tools[t.Name()] = t
	}
	return d
}

func (d *Dispatcher) serve(ctx context.Context) {
	for call := range d.inbox {
		t, ok := d.tools[call.Name]
		if !ok {
			d.results <- result{id: call.ID, err: errUnknownTool}
			continue
		}
		out, err := t.Invoke(ctx, call.Args)
		d.results <- result{id: call.ID, out: out, err: err}
	}
}

// Agent thinks with its embedded Brain and acts through its dispatcher.
type Agent struct {
	Brain
	disp     *Dispatcher
	MaxSteps int
	Timeout  time.Duration
}

// Solve runs a task to its end.
func (a *Agent) Solve(ctx context.Context, task string) (string, error) {
	go a.disp.serve(ctx)
	defer close(a.disp.inbox)
	msgs := []Message{{Role: "user", Content: task}}
	for step := 0; step < a.MaxSteps; step++ {
		reply, err := a.Think(ctx, msgs)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, Message{Role: "assistant", Content: reply.Content})
		if len(reply.ToolCalls) == 0 {
			return reply.Content, nil
		}
		calls := reply.ToolCalls
		go func() {
			for _, c := range calls {
				a.disp.inbox <- c
			}
		}()
		for range calls {
			select {
			case r := <-a.disp.results:
				out := r.out
				if r.err != nil {
					out = r.err.Error()
				}
				msgs = append(msgs, Message{Role: "tool", Content: out, CallID: r.id})
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(a.Timeout):
				return "", errors.New("tool timeout")
			}
		}
	}
	return "", ErrTooManySteps
}

// Stepper hands one call at a time to its dispatcher and waits for its result before the next.
type Stepper struct {
	Brain
	disp *Dispatcher
}

// Solve runs a task to its end.
func (s *Stepper) Solve(ctx context.Context, task string) (string, error) {
	go s.disp.serve(ctx)
	defer close(s.disp.inbox)
	msgs := []Message{{Role: "user", Content: task}}
	for {
		reply, err := s.Think(ctx, msgs)
		if err != nil {
			return "", err
		}
		if len(reply.ToolCalls) == 0 {
			return reply.Content, nil
		}
		for _, c := range reply.ToolCalls {
			s.disp.inbox <- c
			r := <-s.disp.results
			msgs = append(msgs, Message{Role: "tool", Content: r.out, CallID: r.id})
		}
	}
}
