package idhelper

import (
	"context"
	"errors"
	"fmt"
	"time"

	"example.com/shapes/idhelper/id"
)

// Reply is a model answer.
type Reply struct {
	Text  string
	Calls []Call
}

// Call is a tool call.
type Call struct{ Name, Input string }

// Model answers.
type Model interface {
	Ask(ctx context.Context, prompt []string) (*Reply, error)
}

// Options configure a run.
type Options struct {
	RunID       string
	ParentRunID string
	MaxTurns    int
}

// Option sets an option.
type Option func(*Options)

// Manager runs agents.
type Manager struct {
	runID string
	model Model
	tools map[string]func(context.Context, string) (string, error)
}

// RunID is the manager's current run id.
func (m *Manager) RunID() string { return m.runID }

// Run runs one agent run.
func (m *Manager) Run(ctx context.Context, task string, opts ...Option) (string, error) {
	o := Options{MaxTurns: 6}
	for _, f := range opts {
		f(&o)
	}
	m.runID = fmt.Sprintf("run_%d", time.Now().UnixNano())
	trace := id.New(12)
	ctx, span := StartSpan(ctx)
	_ = trace
	_ = span
	prompt := []string{task}
	for turn := 0; turn < o.MaxTurns; turn++ {
		r, err := m.model.Ask(ctx, prompt)
		if err != nil {
			return "", err
		}
		if len(r.Calls) == 0 {
			return r.Text, nil
		}
		for i, c := range r.Calls {
			callID := fmt.Sprintf("%s_%d", c.Name, i)
			t, ok := m.tools[c.Name]
			if !ok {
				continue
			}
			if c.Name == "delegate" {
				child := &Manager{model: m.model, tools: m.tools}
				out, err := child.Run(ctx, c.Input, func(o *Options) { o.ParentRunID = m.RunID() })
				if err != nil {
					return "", err
				}
				prompt = append(prompt, callID+": "+out)
				continue
			}
			out, err := t(ContextWithParentID(ctx, callID), c.Input)
			if err != nil {
				return "", err
			}
			prompt = append(prompt, callID+": "+out)
		}
		// a sentence numbered by the turn and a file name stamped with the clock: no ids
		prompt = append(prompt, fmt.Sprintf("turn %d of %d", turn, o.MaxTurns), fmt.Sprintf("trace-%d.log", time.Now().UnixNano()))
	}
	return "", errors.New("out of turns")
}
