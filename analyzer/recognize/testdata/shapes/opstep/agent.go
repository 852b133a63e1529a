// Package opstep drives a conversation through one opaque step interface: the loop calls
// Step.Generate with a state it shares with the step, and decides from the state the step left
// behind (the last message is the assistant's and asks for no tools: done). The model and the
// tools are the implementation's, in another package.
package opstep

import (
	"context"
	"errors"
)

// ToolCall is a call the model asks for.
type ToolCall struct {
	ID   string
	Name string
	Args string
}

// Message is one chat message.
type Message struct {
	Role      string
	Content   string
	ToolCalls []ToolCall
	CallID    string
}

// State is the conversation the loop and its step share.
type State struct {
	Messages []Message
}

// Step advances the conversation by one model decision and its tool effects.
type Step interface {
	Generate(ctx context.Context, s *State) error
}

// ErrMaxTurns is returned when the loop runs out of turns.
var ErrMaxTurns = errors.New("opstep: too many turns")

// Agent runs a step until the model answers.
type Agent struct {
	MaxTurns int
	step     Step
}

// New returns an agent stepping with step.
func New(step Step) *Agent { return &Agent{MaxTurns: 10, step: step} }

// Run answers input.
func (a *Agent) Run(ctx context.Context, input string) (string, error) {
	s := &State{Messages: []Message{{Role: "user", Content: input}}}
	for i := 0; i < a.MaxTurns; i++ {
		if err := a.step.Generate(ctx, s); err != nil {
			return "", err
		}
		if last := s.Messages[len(s.Messages)-1]; last.Role == "assistant" && len(last.ToolCalls) == 0 {
			return last.Content, nil
		}
	}
	return "", ErrMaxTurns
}
