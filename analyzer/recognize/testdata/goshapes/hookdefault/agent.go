// Package hookdefault is an agent shaped like github.com/m-mizutani/gollem@v0.10.0
// gollem.go:143-160, 386-505 and hook.go:181: the constructor installs no-op hooks (a
// package-level defaultLoopHook returning nil) that options replace, and the turn loop
// returns the error of the loop hook it calls each iteration. The hook's error ends the run
// that is under way (failed), though the one hook the code installs never fails. At the bound
// it sends a max_turns_reached event and returns its sentinel error.
package hookdefault

import (
	"context"
	"errors"
	"fmt"
)

// LoopHook is told of each iteration; an error aborts the run.
type LoopHook func(ctx context.Context, loop int, input []string) error

// Call is a tool call.
type Call struct {
	Name string
	Args map[string]any
}

// Response is the model's reply.
type Response struct {
	Texts []string
	Calls []*Call
}

// Session talks to the model.
type Session interface {
	Generate(ctx context.Context, input ...string) (*Response, error)
}

// Tool is a tool.
type Tool interface {
	Run(ctx context.Context, args map[string]any) (map[string]any, error)
}

// ErrLoopLimit is returned at the bound.
var ErrLoopLimit = errors.New("hookdefault: loop limit exceeded")

func defaultLoopHook(ctx context.Context, loop int, input []string) error {
	return nil
}

// Option configures an agent.
type Option func(*Agent)

// WithLoopHook sets the loop hook.
func WithLoopHook(h LoopHook) Option { return func(a *Agent) { a.loopHook = h } }

// Agent runs the loop.
type Agent struct {
	session   Session
	tools     map[string]Tool
	loopLimit int
	loopHook  LoopHook
	onEvent   func(Event)
}

// New makes an agent.
func New(s Session, tools map[string]Tool, opts ...Option) *Agent {
	a := &Agent{session: s, tools: tools, loopLimit: 32, loopHook: defaultLoopHook}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Execute runs the prompt.
func (a *Agent) Execute(ctx context.Context, prompt string) error {
	input := []string{prompt}
	for i := 0; i < a.loopLimit; i++ {
		if err := a.loopHook(ctx, i, input); err != nil {
			return err
		}
		resp, err := a.session.Generate(ctx, input...)
		if err != nil {
			return err
		}
		if len(resp.Calls) == 0 {
			return nil
		}
		input = input[:0]
		for _, c := range resp.Calls {
			t, ok := a.tools[c.Name]
			if !ok {
				return fmt.Errorf("unknown tool %s", c.Name)
			}
			out, err := t.Run(ctx, c.Args)
			if err != nil {
				return err
			}
			input = append(input, fmt.Sprint(out))
		}
	}
	a.emit(Event{Kind: EventMaxTurnsReached, Turns: a.loopLimit})
	return ErrLoopLimit
}

// EventMaxTurnsReached is the kind of the event sent at the bound (owainlewis/neo@v0.6.2
// internal/agent/agent.go:397-399 sends it, then returns ErrMaxTurns).
const EventMaxTurnsReached EventKind = "max_turns_reached"

// EventKind says what happened.
type EventKind string

// Event is something that happened in a run.
type Event struct {
	Kind  EventKind
	Turns int
}

func (a *Agent) emit(e Event) {
	if a.onEvent != nil {
		a.onEvent(e)
	}
}
