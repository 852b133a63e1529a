// Package streamonce streams one answer: the exported entry starts a goroutine that makes one
// model call, runs the tools it asked for once, and sends the events on the channel it
// returns. There is no turn loop: one step.
package streamonce

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Event is one streamed event.
type Event struct {
	Text string
	Err  error
}

// Agent answers in one step.
type Agent struct {
	c     *llm.Client
	tools map[string]func(string) string
}

// Stream starts the answer and returns its events.
func (a *Agent) Stream(ctx context.Context, prompt string) (<-chan Event, error) {
	if prompt == "" {
		return nil, errors.New("empty prompt")
	}
	out := make(chan Event)
	go func() {
		defer close(out)
		msgs := []llm.Message{{Role: "user", Content: prompt}}
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			out <- Event{Err: err}
			return
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			out <- Event{Text: m.Content}
			return
		}
		for _, tc := range m.ToolCalls {
			out <- Event{Text: a.tools[tc.Function.Name](tc.Function.Arguments)}
		}
	}()
	return out, nil
}
