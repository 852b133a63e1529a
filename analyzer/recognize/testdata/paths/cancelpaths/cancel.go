// Package cancelpaths holds turn loops whose cancellation check is, or is not, on every
// iteration's path: only a check that every iteration passes stops a run whose steps succeed.
package cancelpaths

import (
	"context"
	"errors"

	"example.com/paths/llm"
)

// Agent runs turn loops.
type Agent struct {
	client *llm.Client
	tools  map[string]func(string) string
	input  chan string
	strict bool
}

func (a *Agent) step(msgs []llm.Message, m llm.Message) []llm.Message {
	for _, tc := range m.ToolCalls {
		msgs = append(msgs, llm.Message{Role: "tool", Content: a.tools[tc.Function.Name](tc.Function.Arguments)})
	}
	return msgs
}

// Branch checks only when the history grew long: not on every iteration's path.
func (a *Agent) Branch(ctx context.Context, msgs []llm.Message) (string, error) {
	for {
		if len(msgs) > 10 {
			if err := ctx.Err(); err != nil {
				return "", err
			}
		}
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = a.step(msgs, m)
	}
}

// ready checks cancellation on every path.
func ready(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return errors.Join(errors.New("cancelled"), err)
	}
	return nil
}

// Helper checks through a helper that checks on every path: every iteration observes it.
func (a *Agent) Helper(ctx context.Context, msgs []llm.Message) (string, error) {
	for {
		if err := ready(ctx); err != nil {
			return "", err
		}
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = a.step(msgs, m)
	}
}

// maybeReady checks only in strict mode.
func (a *Agent) maybeReady(ctx context.Context) error {
	if !a.strict {
		return nil
	}
	return ctx.Err()
}

// HelperSome calls a helper that checks on some of its paths only.
func (a *Agent) HelperSome(ctx context.Context, msgs []llm.Message) (string, error) {
	for {
		if err := a.maybeReady(ctx); err != nil {
			return "", err
		}
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = a.step(msgs, m)
	}
}

// Skip goes round again before the check when the model only thought aloud.
func (a *Agent) Skip(ctx context.Context, msgs []llm.Message) (string, error) {
	for {
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = a.step(msgs, m)
		if m.Content == "" {
			continue
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
	}
}

// Input observes cancellation only while it waits for the user, when the model asks.
func (a *Agent) Input(ctx context.Context, msgs []llm.Message) (string, error) {
	for {
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		if m.Content == "ask" {
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case in := <-a.input:
				msgs = append(msgs, llm.Message{Role: "user", Content: in})
			}
		}
		msgs = a.step(msgs, m)
	}
}

// Bottom checks after the tools ran, on every path back to the model.
func (a *Agent) Bottom(ctx context.Context, msgs []llm.Message) (string, error) {
	for {
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = a.step(msgs, m)
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		default:
		}
	}
}

// RecBefore checks before every step of the recursion.
func (a *Agent) RecBefore(ctx context.Context, msgs []llm.Message) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
	if err != nil {
		return "", err
	}
	m := resp.Choices[0].Message
	if len(m.ToolCalls) == 0 {
		return m.Content, nil
	}
	return a.RecBefore(ctx, a.step(msgs, m))
}
