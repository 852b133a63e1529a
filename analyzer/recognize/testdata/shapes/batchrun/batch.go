// Package batchrun runs one agent run per input at once and returns when all of them are
// over: the runs are launched in goroutines of an error group and waited for.
package batchrun

import (
	"context"
	"errors"
	"fmt"
	"sync"

	openai "example.com/shapes/goopenai"
)

// group is a small error group of the package's own: Go runs f in a goroutine, Wait waits
// for all and returns the first error.
type group struct {
	wg   sync.WaitGroup
	once sync.Once
	err  error
}

// Go runs f in a goroutine.
func (g *group) Go(f func() error) {
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		if err := f(); err != nil {
			g.once.Do(func() { g.err = err })
		}
	}()
}

// Wait waits for every goroutine Go started.
func (g *group) Wait() error {
	g.wg.Wait()
	return g.err
}

// Agent answers with tools.
type Agent struct {
	Client *openai.Client
	Tools  map[string]func(string) (string, error)
	Max    int
}

// Answer runs one question.
func (a *Agent) Answer(ctx context.Context, q string) (string, error) {
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: q}}
	for i := 0; i < a.Max; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		resp, err := a.Client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Messages: msgs})
		if err != nil {
			return "", err
		}
		msg := resp.Choices[0].Message
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		for _, tc := range msg.ToolCalls {
			out, err := a.Tools[tc.Function.Name](tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: out, ToolCallID: tc.ID})
		}
	}
	return "", fmt.Errorf("max steps %d reached", a.Max)
}

// AnswerAll answers every question at once (in a sync.WaitGroup) and returns when all the
// runs are over.
func (a *Agent) AnswerAll(ctx context.Context, qs []string) ([]string, error) {
	if len(qs) == 0 {
		return nil, nil
	}
	out := make([]string, len(qs))
	errs := make([]error, len(qs))
	var wg sync.WaitGroup
	for i, q := range qs {
		wg.Go(func() {
			out[i], errs[i] = a.Answer(ctx, q)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return out, nil
}

// AnswerEach answers every question at once in the package's own group and returns the
// first error once every run is over.
func (a *Agent) AnswerEach(ctx context.Context, qs []string) error {
	var g group
	for _, q := range qs {
		g.Go(func() error {
			_, err := a.Answer(ctx, q)
			return err
		})
	}
	err := g.Wait()
	if err != nil {
		return fmt.Errorf("batch: %w", err)
	}
	return nil
}
