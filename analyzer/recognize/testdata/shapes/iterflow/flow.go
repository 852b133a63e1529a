// Package iterflow returns its run as an iterator the caller drains: the entry's own return
// hands the iterator over, and the iterator body's returns are the run's exits (after yielding
// an error: failed; when the consumer stops: cancelled; at the final answer: completed).
package iterflow

import (
	"context"
	"fmt"
	"iter"

	"example.com/shapes/llm"
)

// Event is one step's output.
type Event struct {
	Msg   llm.Message
	Final bool
}

// Flow runs the loop.
type Flow struct {
	c     *llm.Client
	tools map[string]func(string) string
}

// Run returns the run's events.
func (f *Flow) Run(ctx context.Context, msgs []llm.Message) iter.Seq2[*Event, error] {
	return func(yield func(*Event, error) bool) {
		for {
			resp, err := f.c.Chat(ctx, llm.Request{Messages: msgs})
			if err != nil {
				yield(nil, err)
				return
			}
			m := resp.Choices[0].Message
			msgs = append(msgs, m)
			if !yield(&Event{Msg: m, Final: len(m.ToolCalls) == 0}, nil) {
				return
			}
			if len(m.ToolCalls) == 0 {
				return
			}
			if len(msgs) > 100 && m.Content == "" {
				yield(nil, fmt.Errorf("no progress"))
				return
			}
			for _, tc := range m.ToolCalls {
				if t, ok := f.tools[tc.Function.Name]; ok {
					msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
				}
			}
		}
	}
}
