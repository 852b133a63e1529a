// Package relay hides its run behind interfaces: an exported Service interface returned by a
// constructor, an unexported service whose Start picks one of several Engine implementations
// and returns their event channel; the engine that runs the turn loop does it in a goroutine.
package relay

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Event is one step's output.
type Event struct {
	Text string
	Err  error
}

// Service starts conversations.
type Service interface {
	Start(ctx context.Context, prompt string) (<-chan Event, error)
}

// Engine produces the events of one conversation.
type Engine interface {
	Produce(ctx context.Context, msgs []llm.Message) (<-chan Event, error)
}

type service struct {
	engines map[string]Engine
	pick    string
}

// NewService returns a Service over the engines.
func NewService(pick string) Service {
	return &service{pick: pick, engines: map[string]Engine{
		"chat":   &chatEngine{c: &llm.Client{}, tools: map[string]func(string) string{}},
		"echo":   echoEngine{},
		"canned": cannedEngine{answer: "ok"},
	}}
}

func (s *service) Start(ctx context.Context, prompt string) (<-chan Event, error) {
	e, ok := s.engines[s.pick]
	if !ok {
		return nil, errors.New("no engine " + s.pick)
	}
	return e.Produce(ctx, []llm.Message{{Role: "user", Content: prompt}})
}

type chatEngine struct {
	c     *llm.Client
	tools map[string]func(string) string
}

func (e *chatEngine) Produce(ctx context.Context, msgs []llm.Message) (<-chan Event, error) {
	if e.c == nil {
		return nil, errors.New("no client")
	}
	out := make(chan Event)
	go func() {
		defer close(out)
		for {
			resp, err := e.c.Chat(ctx, llm.Request{Messages: msgs})
			if err != nil {
				out <- Event{Err: err}
				return
			}
			m := resp.Choices[0].Message
			msgs = append(msgs, m)
			if len(m.ToolCalls) == 0 {
				out <- Event{Text: m.Content}
				return
			}
			for _, tc := range m.ToolCalls {
				run, ok := e.tools[tc.Function.Name]
				if !ok {
					continue
				}
				msgs = append(msgs, llm.Message{Role: "tool", Content: run(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}()
	return out, nil
}

type echoEngine struct{}

func (echoEngine) Produce(ctx context.Context, msgs []llm.Message) (<-chan Event, error) {
	out := make(chan Event, 1)
	out <- Event{Text: msgs[len(msgs)-1].Content}
	close(out)
	return out, nil
}

type cannedEngine struct{ answer string }

func (c cannedEngine) Produce(ctx context.Context, msgs []llm.Message) (<-chan Event, error) {
	out := make(chan Event, 1)
	out <- Event{Text: c.answer}
	close(out)
	return out, nil
}
