// Package eventbound is an agent shaped like github.com/owainlewis/neo@v0.6.2
// internal/agent/agent.go:16-38, 121-125 and 314-400: at its bound the turn loop falls out,
// logs, sends an event of kind max_turns_reached to the handler and returns the text so far
// with the sentinel ErrMaxTurns. The run fails with that error (for the reason the event
// records), it does not merely record a stop reason.
package eventbound

import (
	"context"
	"errors"
	"log"
	"strings"
)

// EventKind says what happened.
type EventKind string

// Event kinds.
const (
	EventToolCall        EventKind = "tool_call"
	EventMaxTurnsReached EventKind = "max_turns_reached"
)

// Event is something that happened in a run.
type Event struct {
	Kind     EventKind
	MaxTurns int
	Err      error
}

// ErrMaxTurns is returned at the bound.
var ErrMaxTurns = errors.New("eventbound: max turns reached")

// Call is a tool call.
type Call struct{ Name, Input string }

// Reply is the model's answer.
type Reply struct {
	Text  string
	Calls []Call
}

// Provider is a model.
type Provider interface {
	Chat(ctx context.Context, history []string) (*Reply, error)
}

// Tool runs a tool.
type Tool interface {
	Execute(ctx context.Context, input string) (string, error)
}

// Config configures an agent.
type Config struct {
	MaxTurns int
	OnEvent  func(Event)
}

// Agent runs turns.
type Agent struct {
	cfg      Config
	provider Provider
	tools    map[string]Tool
	history  []string
}

// New makes an agent.
func New(p Provider, tools map[string]Tool, cfg Config) *Agent {
	if cfg.MaxTurns == 0 {
		cfg.MaxTurns = 50
	}
	return &Agent{cfg: cfg, provider: p, tools: tools}
}

func (a *Agent) emit(e Event) {
	if a.cfg.OnEvent != nil {
		a.cfg.OnEvent(e)
	}
}

// Send runs one prompt.
func (a *Agent) Send(ctx context.Context, prompt string) (string, error) {
	a.history = append(a.history, prompt)
	var finalText strings.Builder
	for turn := 0; turn < a.cfg.MaxTurns; turn++ {
		reply, err := a.provider.Chat(ctx, a.history)
		if err != nil {
			return "", err
		}
		finalText.WriteString(reply.Text)
		if len(reply.Calls) == 0 {
			return strings.TrimSpace(finalText.String()), nil
		}
		for _, c := range reply.Calls {
			t, ok := a.tools[c.Name]
			if !ok {
				a.history = append(a.history, "unknown tool "+c.Name)
				continue
			}
			a.emit(Event{Kind: EventToolCall})
			out, err := t.Execute(ctx, c.Input)
			if err != nil {
				out = err.Error()
			}
			a.history = append(a.history, out)
		}
	}
	log.Printf("agent max turns reached: %d", a.cfg.MaxTurns)
	a.emit(Event{Kind: EventMaxTurnsReached, MaxTurns: a.cfg.MaxTurns, Err: ErrMaxTurns})
	return strings.TrimSpace(finalText.String()), ErrMaxTurns
}
