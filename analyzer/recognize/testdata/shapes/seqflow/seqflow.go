// Package seqflow runs its turn loop inside an iterator: the loop's function returns an
// iter.Seq2 closure; an unexported worker behind the exported Worker interface reaches it
// through a func field set by a constructor, and forwards what the iterator yields.
package seqflow

import (
	"context"
	"errors"
	"iter"

	"example.com/shapes/llm"
)

// Note is one item a run yields.
type Note struct{ Text string }

// Loop runs the conversation.
type Loop struct {
	c     *llm.Client
	tools map[string]func(context.Context, string) string
}

// Steps yields the notes of a run; the caller drains them.
func (l *Loop) Steps(ctx context.Context, prompt string) iter.Seq2[*Note, error] {
	return func(yield func(*Note, error) bool) {
		msgs := []llm.Message{{Role: "user", Content: prompt}}
		for {
			resp, err := l.c.Chat(ctx, llm.Request{Messages: msgs})
			if err != nil {
				yield(nil, err)
				return
			}
			m := resp.Choices[0].Message
			msgs = append(msgs, m)
			if len(m.ToolCalls) == 0 {
				yield(&Note{Text: m.Content}, nil)
				return
			}
			for _, tc := range m.ToolCalls {
				fn, ok := l.tools[tc.Function.Name]
				if !ok {
					yield(nil, errors.New("unknown tool"))
					return
				}
				msgs = append(msgs, llm.Message{Role: "tool", Content: fn(ctx, tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
}

// Worker runs prompts.
type Worker interface {
	Do(ctx context.Context, prompt string) iter.Seq2[*Note, error]
}

// Spec configures a worker: Body is what a run does.
type Spec struct {
	Name string
	Body func(ctx context.Context, prompt string) iter.Seq2[*Note, error]
}

type worker struct {
	name string
	body func(ctx context.Context, prompt string) iter.Seq2[*Note, error]
}

// NewWorker returns a Worker running spec.Body.
func NewWorker(spec Spec) Worker { return &worker{name: spec.Name, body: spec.Body} }

// NewLoopWorker returns a Worker whose runs are l's turn loop.
func NewLoopWorker(l *Loop) Worker { return NewWorker(Spec{Name: "loop", Body: l.Steps}) }

func (w *worker) Do(ctx context.Context, prompt string) iter.Seq2[*Note, error] {
	return func(yield func(*Note, error) bool) {
		for n, err := range w.body(ctx, prompt) {
			if !yield(n, err) || err != nil {
				return
			}
		}
	}
}
