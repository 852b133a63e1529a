// Package helperexit reaches its turn loop through helpers: the exported entries hand back
// what an unexported helper returns, hooks of the configuration run before, inside and after
// the loop, and a session is created before the run starts.
package helperexit

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Config holds the hooks a run calls.
type Config struct {
	BeforeRun func(ctx context.Context, prompt string) error
	AfterStep func(ctx context.Context, m llm.Message) error
	OnDone    func(ctx context.Context, answer string) error
}

// Session is a stored conversation.
type Session struct{ ID string }

// Sessions creates sessions.
type Sessions interface {
	Create(ctx context.Context, user string) (*Session, error)
}

// Agent runs turns.
type Agent struct {
	c     *llm.Client
	cfg   Config
	svc   Sessions
	tools map[string]func(string) string
	max   int
}

// Answer hands the run to its helpers.
func (a *Agent) Answer(ctx context.Context, prompt string) (string, error) {
	if prompt == "" {
		return "", errors.New("empty prompt")
	}
	return a.run(ctx, prompt)
}

func (a *Agent) run(ctx context.Context, prompt string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: prompt}}
	return a.loop(ctx, msgs)
}

func (a *Agent) loop(ctx context.Context, msgs []llm.Message) (string, error) {
	for i := 0; i < a.max; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: a.tools[tc.Function.Name](tc.Function.Arguments)})
		}
	}
	return "", errors.New("too many steps")
}

// Hooked runs the hooks of the configuration around its loop and creates a session first.
func (a *Agent) Hooked(ctx context.Context, user, prompt string) (string, error) {
	sess, err := a.svc.Create(ctx, user)
	if err != nil {
		return "", err
	}
	if err := a.cfg.BeforeRun(ctx, prompt); err != nil {
		return "", err
	}
	msgs := []llm.Message{{Role: "user", Content: prompt + sess.ID}}
	answer := ""
	for i := 0; i < a.max; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if err := a.cfg.AfterStep(ctx, m); err != nil {
			return "", err
		}
		if len(m.ToolCalls) == 0 {
			answer = m.Content
			break
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: a.tools[tc.Function.Name](tc.Function.Arguments)})
		}
	}
	if err := a.cfg.OnDone(ctx, answer); err != nil {
		return "", err
	}
	return answer, nil
}

// Finish returns the completion hook's error directly after the loop.
func (a *Agent) Finish(ctx context.Context, prompt string) error {
	msgs := []llm.Message{{Role: "user", Content: prompt}}
	answer := ""
	for i := 0; i < a.max; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			answer = m.Content
			break
		}
		for _, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: a.tools[tc.Function.Name](tc.Function.Arguments)})
		}
	}
	return a.cfg.OnDone(ctx, answer)
}
