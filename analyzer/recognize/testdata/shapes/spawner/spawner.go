// Package spawner is a supervisor that runs sub-agents: each child run gets a new id and the
// supervisor's run id as its parent, through a struct literal, a functional option or the
// context.
package spawner

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"example.com/shapes/llm"
	"github.com/google/uuid"
)

// ErrNoAnswer is returned when the loop runs out of steps.
var ErrNoAnswer = errors.New("no answer")

// Worker is a sub-agent: one turn loop.
type Worker struct {
	ID       string
	ParentID string
	c        *llm.Client
	tools    map[string]func(string) string
}

// Option configures a worker.
type Option func(*Worker)

// WithParent makes the worker a child of the run id.
func WithParent(id string) Option {
	return func(w *Worker) { w.ParentID = id }
}

// NewWorker returns a worker with a new id.
func NewWorker(c *llm.Client, opts ...Option) *Worker {
	w := &Worker{ID: uuid.New().String(), c: c, tools: map[string]func(string) string{}}
	for _, o := range opts {
		o(w)
	}
	return w
}

type parentKey struct{}

// Work runs the worker's loop.
func (w *Worker) Work(ctx context.Context, task string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: task}}
	for i := 0; i < 10; i++ {
		resp, err := w.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := w.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return "", ErrNoAnswer
}

var runs atomic.Int64

// Supervisor hands tasks to workers.
type Supervisor struct {
	RunID string
	c     *llm.Client
}

// Delegate runs one child worker per task, each a new run whose parent is the supervisor's.
func (s *Supervisor) Delegate(ctx context.Context, tasks []string) ([]string, error) {
	s.RunID = fmt.Sprintf("sup-%d", runs.Add(1))
	var outs []string
	for _, t := range tasks {
		child := &Worker{ID: uuid.NewString(), ParentID: s.RunID, c: s.c}
		out, err := child.Work(ctx, t)
		if err != nil {
			return outs, err
		}
		outs = append(outs, out)
	}
	return outs, nil
}

// Spawn runs a child worker made with the parent option.
func (s *Supervisor) Spawn(ctx context.Context, task string) (string, error) {
	child := NewWorker(s.c, WithParent(s.RunID))
	return child.Work(ctx, task)
}

// SpawnCtx runs a child worker that finds its parent in the context.
func (s *Supervisor) SpawnCtx(ctx context.Context, task string) (string, error) {
	ctx = context.WithValue(ctx, parentKey{}, s.RunID)
	return NewWorker(s.c).Work(ctx, task)
}
