// Package started launches the turn loop in a goroutine and returns.
package started

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Session runs in the background.
type Session struct {
	c     *llm.Client
	tools map[string]func(string) string
	done  chan error
}

// Start launches the run.
func (s *Session) Start(ctx context.Context, prompt string) error {
	if s.c == nil {
		return errors.New("no client")
	}
	go s.loop(ctx, []llm.Message{{Role: "user", Content: prompt}})
	return nil
}

func (s *Session) loop(ctx context.Context, msgs []llm.Message) {
	for {
		select {
		case <-ctx.Done():
			s.done <- ctx.Err()
			return
		default:
		}
		resp, err := s.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			s.done <- err
			return
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			s.done <- nil
			return
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: s.tools[tc.Function.Name](tc.Function.Arguments)})
		}
	}
}
