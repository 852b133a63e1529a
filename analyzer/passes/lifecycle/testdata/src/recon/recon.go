// Package recon holds loops that name-based inference takes for turn loops and the structural
// recognizer does not: the checks must not see them, or must see the recognizer's verdict.
package recon

import (
	"context"
	"errors"
	"time"
)

// Msg carries tool calls, so a method returning it is inferred to be a model call by name.
type Msg struct {
	Text      string
	ToolCalls []Call
}

// Call is a tool call.
type Call struct{ Name, Args string }

// Model is a model.
type Model interface {
	Generate(ctx context.Context, msgs []Msg) (*Msg, error)
}

// Store persists messages; Save returns a Msg, so by name it is a model call too.
type Store interface {
	Save(ctx context.Context, m Msg) (*Msg, error)
}

// Archive saves every message: a loop over a finite slice around a database write.
func Archive(ctx context.Context, s Store, msgs []Msg) error { // want Archive:`lifecycle\(model\)`
	for _, m := range msgs {
		if _, err := s.Save(ctx, m); err != nil {
			return err
		}
	}
	return nil
}

// Send repeats one model call until it succeeds: a retry, not a turn loop.
func Send(ctx context.Context, m Model, msgs []Msg) (*Msg, error) { // want Send:`lifecycle\(model\)`
	for {
		reply, err := m.Generate(ctx, msgs)
		if reply != nil {
			return reply, err
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
	}
}

// Agent is a turn loop whose only cancellation check is in the retry backoff.
func Agent(ctx context.Context, m Model, tools map[string]func(string) string, max int) (string, error) { // want Agent:`lifecycle\(model cancel\)`
	var msgs []Msg
	for i := 0; i < max; i++ {
		reply, err := m.Generate(ctx, msgs)
		if err != nil {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(time.Second):
			}
			continue
		}
		if len(reply.ToolCalls) == 0 {
			return reply.Text, nil
		}
		for _, c := range reply.ToolCalls {
			msgs = append(msgs, Msg{Text: tools[c.Name](c.Args)})
		}
	}
	return "", errors.New("max steps")
}
