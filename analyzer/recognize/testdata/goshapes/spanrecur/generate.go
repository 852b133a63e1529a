// Package spanrecur is a generate loop shaped like github.com/firebase/genkit/go@v1.4.0:
// GenerateWithRequest (ai/generate.go:204-410) defaults maxTurns to 5 and runs the turns as an
// inline recursive closure (`generate`, 328) inside a tracing-span callback (335), calling the
// model through a ModelFunc wrapped by middleware (ChainMiddleware, core/middleware.go:33-40;
// the middlewares of ai/model_middleware.go:82-100 and 418-420 each return a closure that calls
// the `next` it was handed) and the tools in one goroutine each (783-791); Generate
// (ai/generate.go:413-545) builds the options and hands the run on with `return
// GenerateWithRequest(...)`.
package spanrecur

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Part is a part of a message: text or a tool request.
type Part struct {
	Text        string
	ToolRequest *ToolRequest
}

// ToolRequest is a tool the model asks for.
type ToolRequest struct {
	Name  string
	Input map[string]any
}

// Message is one message of the conversation.
type Message struct {
	Parts []*Part
}

// Request is what the model is asked.
type Request struct {
	Messages []*Message
}

// Response is the model's answer.
type Response struct {
	Message      *Message
	FinishReason string
}

// ToolRequests are the tool requests of the answer.
func (r *Response) ToolRequests() []*Part {
	var out []*Part
	for _, p := range r.Message.Parts {
		if p.ToolRequest != nil {
			out = append(out, p)
		}
	}
	return out
}

// ModelFunc generates a response.
type ModelFunc func(ctx context.Context, req *Request) (*Response, error)

// Middleware wraps a ModelFunc.
type Middleware func(ModelFunc) ModelFunc

// Model is a model looked up by name.
type Model interface {
	Generate(ctx context.Context, req *Request) (*Response, error)
}

// Tool is a tool looked up by name.
type Tool interface {
	Run(ctx context.Context, input map[string]any) (string, error)
}

// Registry holds the models and tools.
type Registry struct {
	models map[string]Model
	tools  map[string]Tool
}

// Chain composes middlewares, the first one outermost.
func Chain(mws ...Middleware) Middleware {
	return func(fn ModelFunc) ModelFunc {
		for i := range mws {
			fn = mws[len(mws)-1-i](fn)
		}
		return fn
	}
}

// WithTiming measures each model call.
func WithTiming() Middleware {
	return func(next ModelFunc) ModelFunc {
		return func(ctx context.Context, req *Request) (*Response, error) {
			start := time.Now()
			resp, err := next(ctx, req)
			if err != nil {
				return nil, err
			}
			_ = time.Since(start)
			return resp, nil
		}
	}
}

// WithValidation refuses empty requests.
func WithValidation(name string) Middleware {
	return func(next ModelFunc) ModelFunc {
		return func(ctx context.Context, req *Request) (*Response, error) {
			if len(req.Messages) == 0 {
				return nil, fmt.Errorf("model %s: no messages", name)
			}
			return next(ctx, req)
		}
	}
}

type spanKey struct{}

// runInSpan runs f in a span named name.
func runInSpan(ctx context.Context, name string, req *Request, f func(context.Context, *Request) (*Response, error)) (*Response, error) {
	ctx = context.WithValue(ctx, spanKey{}, name)
	return f(ctx, req)
}

// Options are the options of one generate call.
type Options struct {
	Model    string
	Messages []*Message
	MaxTurns int
}

// GenerateWithRequest runs the generate loop.
func GenerateWithRequest(ctx context.Context, r *Registry, opts *Options, mw []Middleware) (*Response, error) {
	m, ok := r.models[opts.Model]
	if !ok {
		return nil, fmt.Errorf("model %q not found", opts.Model)
	}
	maxTurns := opts.MaxTurns
	if maxTurns < 0 {
		return nil, errors.New("max turns must be greater than 0")
	}
	if maxTurns == 0 {
		maxTurns = 5
	}
	fn := Chain(append([]Middleware{WithTiming(), WithValidation(opts.Model)}, mw...)...)(m.Generate)

	var generate func(context.Context, *Request, int) (*Response, error)
	generate = func(ctx context.Context, req *Request, turn int) (*Response, error) {
		return runInSpan(ctx, "generate", req, func(ctx context.Context, req *Request) (*Response, error) {
			resp, err := fn(ctx, req)
			if err != nil {
				return nil, err
			}
			if len(resp.ToolRequests()) == 0 {
				return resp, nil
			}
			if turn+1 > maxTurns {
				return nil, fmt.Errorf("exceeded maximum tool call iterations (%d)", maxTurns)
			}
			next, err := handleTools(ctx, r, req, resp)
			if err != nil {
				return nil, err
			}
			return generate(ctx, next, turn+1)
		})
	}
	return generate(ctx, &Request{Messages: opts.Messages}, 0)
}

type result struct {
	out string
	err error
}

// handleTools runs the tool requests of resp in one goroutine each.
func handleTools(ctx context.Context, r *Registry, req *Request, resp *Response) (*Request, error) {
	results := make(chan result)
	for _, p := range resp.ToolRequests() {
		go func(p *Part) {
			t, ok := r.tools[p.ToolRequest.Name]
			if !ok {
				results <- result{err: fmt.Errorf("tool %q not found", p.ToolRequest.Name)}
				return
			}
			out, err := t.Run(ctx, p.ToolRequest.Input)
			results <- result{out: out, err: err}
		}(p)
	}
	msg := &Message{}
	for range resp.ToolRequests() {
		res := <-results
		if res.err != nil {
			return nil, res.err
		}
		msg.Parts = append(msg.Parts, &Part{Text: res.out})
	}
	msgs := append(append([]*Message{}, req.Messages...), resp.Message, msg)
	return &Request{Messages: msgs}, nil
}

// GenerateOption sets an option.
type GenerateOption func(*Options)

// Generate builds the options and runs the loop.
func Generate(ctx context.Context, r *Registry, opts ...GenerateOption) (*Response, error) {
	o := &Options{}
	for _, opt := range opts {
		opt(o)
	}
	if o.Model == "" {
		return nil, errors.New("model is required")
	}
	return GenerateWithRequest(ctx, r, o, nil)
}
