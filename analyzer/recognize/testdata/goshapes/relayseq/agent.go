// Package relayseq is an agent shaped like github.com/go-kratos/blades@v0.1.0 agent.go:210-356
// and middleware.go:12-30: the unexported agent behind the exported Agent interface returns a
// Generator whose body answers a resumed invocation from the session (yield the stored
// message, return), fails setup before any step, then wraps a helper's iterator in a
// HandleFunc a middleware chain may wrap and relays what Handle yields. The helper's returned
// closure holds the turn loop: the provider's Generate, a stop on a final message, the tool
// calls run in goroutines after a search by name (an errgroup there).
package relayseq

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"sync"
)

// Generator is a stream of items or errors.
type Generator[T, E any] iter.Seq2[T, E]

// Message is a chat message.
type Message struct {
	Role  string
	Text  string
	Calls []ToolCall
	Done  bool
}

// ToolCall is one tool call of a message.
type ToolCall struct {
	Name, Args, Result string
}

// Request is a model request.
type Request struct{ Messages []*Message }

// Provider is a model.
type Provider interface {
	Generate(ctx context.Context, req *Request) (*Message, error)
	NewStreaming(ctx context.Context, req *Request) Generator[*Message, error]
}

// Tool runs one tool.
type Tool interface {
	Name() string
	Handle(ctx context.Context, args string) (string, error)
}

// Invocation is one run's input.
type Invocation struct {
	Message *Message
	History []*Message
	Resume  bool
	Stream  bool
}

// Handler handles an invocation.
type Handler interface {
	Handle(ctx context.Context, inv *Invocation) Generator[*Message, error]
}

// HandleFunc is a func Handler.
type HandleFunc func(ctx context.Context, inv *Invocation) Generator[*Message, error]

// Handle calls f.
func (f HandleFunc) Handle(ctx context.Context, inv *Invocation) Generator[*Message, error] {
	return f(ctx, inv)
}

// Middleware wraps a handler.
type Middleware func(Handler) Handler

// Agent runs invocations.
type Agent interface {
	Run(ctx context.Context, inv *Invocation) Generator[*Message, error]
}

// ErrMaxIterations is yielded at the bound.
var ErrMaxIterations = errors.New("relayseq: max iterations")

// ErrNoFinal is yielded when the model gave no final message.
var ErrNoFinal = errors.New("relayseq: no final response")

type agent struct {
	provider      Provider
	tools         []Tool
	middlewares   []Middleware
	maxIterations int
}

// New makes an agent.
func New(p Provider, tools ...Tool) Agent {
	return &agent{provider: p, tools: tools, maxIterations: 10}
}

func (a *agent) resumed(inv *Invocation) (*Message, bool) {
	if !inv.Resume {
		return nil, false
	}
	for _, m := range inv.History {
		if m.Done {
			return m, true
		}
	}
	return nil, false
}

func (a *agent) buildRequest(inv *Invocation) (*Request, error) {
	if inv.Message == nil {
		return nil, fmt.Errorf("relayseq: no message")
	}
	return &Request{Messages: append(append([]*Message{}, inv.History...), inv.Message)}, nil
}

// Run runs the agent.
func (a *agent) Run(ctx context.Context, inv *Invocation) Generator[*Message, error] {
	return func(yield func(*Message, error) bool) {
		if m, ok := a.resumed(inv); ok {
			yield(m, nil)
			return
		}
		req, err := a.buildRequest(inv)
		if err != nil {
			yield(nil, err)
			return
		}
		var handler Handler = HandleFunc(func(ctx context.Context, inv *Invocation) Generator[*Message, error] {
			return a.handle(ctx, inv, req)
		})
		for i := len(a.middlewares) - 1; i >= 0; i-- {
			handler = a.middlewares[i](handler)
		}
		for m, err := range handler.Handle(ctx, inv) {
			if !yield(m, err) {
				break
			}
		}
	}
}

func (a *agent) callTool(ctx context.Context, call ToolCall) (ToolCall, error) {
	for _, t := range a.tools {
		if t.Name() == call.Name {
			out, err := t.Handle(ctx, call.Args)
			if err != nil {
				return call, err
			}
			call.Result = out
			return call, nil
		}
	}
	return call, fmt.Errorf("tool %s not found", call.Name)
}

func (a *agent) runTools(ctx context.Context, m *Message) (*Message, error) {
	out := &Message{Role: "tool", Calls: make([]ToolCall, len(m.Calls))}
	errs := make([]error, len(m.Calls))
	var wg sync.WaitGroup
	for i, c := range m.Calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out.Calls[i], errs[i] = a.callTool(ctx, c)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}

func (a *agent) handle(ctx context.Context, inv *Invocation, req *Request) Generator[*Message, error] {
	return func(yield func(*Message, error) bool) {
		var (
			err   error
			final *Message
		)
		for i := 0; i < a.maxIterations; i++ {
			if !inv.Stream {
				final, err = a.provider.Generate(ctx, req)
				if err != nil {
					yield(nil, err)
					return
				}
			} else {
				for m, err := range a.provider.NewStreaming(ctx, req) {
					if err != nil {
						yield(nil, err)
						return
					}
					if m.Done {
						final = m
					} else if !yield(m, nil) {
						return
					}
				}
			}
			if final == nil {
				yield(nil, ErrNoFinal)
				return
			}
			if final.Role == "tool" {
				toolMsg, err := a.runTools(ctx, final)
				if err != nil {
					yield(nil, err)
					return
				}
				req.Messages = append(req.Messages, final, toolMsg)
				continue
			}
			yield(final, nil)
			return
		}
		yield(nil, ErrMaxIterations)
	}
}
