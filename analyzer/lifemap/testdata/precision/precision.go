// Package precision holds the shapes the lifecycle map must not mistake for run entries, turn
// loops or run exits: a constructor, a retry loop, checks that fail before a run starts.
package precision

import (
	"context"
	"errors"
	"time"
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

// CallTool runs one tool.
//
//lifeline:tool-call
func CallTool(ctx context.Context, name string) (string, error) { return name, nil }

// ErrNoInput is returned before a run starts.
var ErrNoInput = errors.New("precision: no input")

// Agent runs a chat model with tools.
type Agent struct {
	Chat     Chat
	MaxSteps int
}

// Run checks its input (a failure there is no run exit: the run never started), then runs the
// turn loop.
func (a *Agent) Run(ctx context.Context, input string) (string, error) {
	if input == "" {
		return "", ErrNoInput
	}
	history := []string{input}
	for step := 0; step < a.MaxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		reply, err := ask(ctx, a.Chat, history)
		if err != nil {
			return "", err
		}
		if len(reply.ToolCalls) == 0 {
			return reply.Text, nil
		}
		for _, tc := range reply.ToolCalls {
			out, err := CallTool(ctx, tc)
			if err != nil {
				return "", err
			}
			history = append(history, out)
		}
	}
	return "", errors.New("max steps")
}

// ask retries one model call with a pause: a retry loop, not a turn loop.
func ask(ctx context.Context, c Chat, history []string) (*Reply, error) {
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		r, err := c.Send(ctx, history)
		if err == nil {
			return r, nil
		}
		last = err
		time.Sleep(10 * time.Millisecond)
	}
	return nil, last
}

// Ask is exported and holds only a retry loop: not a run entry.
func Ask(ctx context.Context, c Chat, prompt string) (*Reply, error) {
	return ask(ctx, c, []string{prompt})
}

// Runner holds a run built by NewRunner.
type Runner struct {
	run func(ctx context.Context) (string, error)
}

// NewRunner builds a runner: it stores a closure that runs the agent later, so it reaches the
// turn loop without running it, and is not a run entry.
func NewRunner(a *Agent, input string) (*Runner, error) {
	if a.Chat == nil {
		return nil, errors.New("precision: no chat model")
	}
	return &Runner{run: func(ctx context.Context) (string, error) { return a.Run(ctx, input) }}, nil
}

// Start runs the agent in a goroutine after checking its arguments: an entry whose argument
// check is not a run exit.
func Start(ctx context.Context, a *Agent, input string, done chan<- error) error {
	if a == nil {
		return errors.New("precision: nil agent")
	}
	go func() {
		_, err := a.Run(ctx, input)
		done <- err
	}()
	return nil
}

// Events is what Stream returns: the caller reads the run's events from it.
type Events struct{ c chan string }

// Next returns the next event, false when the run is over.
func (e *Events) Next() (string, bool) { s, ok := <-e.c; return s, ok }

// Stream runs the agent and hands back the events: a successful return only started the run.
func Stream(ctx context.Context, a *Agent, input string) (*Events, error) {
	ev := &Events{c: make(chan string, 1)}
	out, err := a.Run(ctx, input)
	if err != nil {
		return nil, err
	}
	ev.c <- out
	close(ev.c)
	return ev, nil
}
