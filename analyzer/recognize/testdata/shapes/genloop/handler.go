package genloop

import (
	"context"
	"iter"

	"example.com/shapes/llm"
)

// Handler answers a request as a stream of messages.
type Handler interface {
	Handle(ctx context.Context, in string) iter.Seq2[*Msg, error]
}

// HandlerFunc adapts a func to a Handler.
type HandlerFunc func(ctx context.Context, in string) iter.Seq2[*Msg, error]

// Handle calls f.
func (f HandlerFunc) Handle(ctx context.Context, in string) iter.Seq2[*Msg, error] { return f(ctx, in) }

// Middleware wraps a handler.
type Middleware func(next Handler) Handler

func logged(next Handler) Handler {
	return HandlerFunc(func(ctx context.Context, in string) iter.Seq2[*Msg, error] {
		return next.Handle(ctx, in)
	})
}

// Server serves an agent through a middleware chain.
type Server struct {
	h Handler
}

// NewServer wraps the agent's handler in the middlewares.
func NewServer(a *Agent, mws ...Middleware) *Server {
	var h Handler = a.handle(a.client)
	h = logged(h)
	for _, mw := range mws {
		h = mw(h)
	}
	return &Server{h: h}
}

// Serve answers in.
func (s *Server) Serve(ctx context.Context, in string) iter.Seq2[*Msg, error] {
	return s.h.Handle(ctx, in)
}

// handle returns the handler running the agent's loop over client c.
func (a *Agent) handle(c *llm.Client) HandlerFunc {
	return func(ctx context.Context, in string) iter.Seq2[*Msg, error] {
		return func(yield func(*Msg, error) bool) {
			msgs := []llm.Message{{Role: "user", Content: in}}
			for i := 0; i < a.maxIter; i++ {
				resp, err := c.Chat(ctx, llm.Request{Messages: msgs})
				if err != nil {
					yield(nil, err)
					return
				}
				m := resp.Choices[0].Message
				msgs = append(msgs, m)
				if len(m.ToolCalls) == 0 {
					yield(&Msg{Role: "assistant", Content: m.Content}, nil)
					return
				}
				for _, tc := range m.ToolCalls {
					out, err := a.tools[tc.Function.Name](ctx, tc.Function.Arguments)
					if err != nil {
						yield(nil, err)
						return
					}
					msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
				}
			}
			yield(nil, ErrMaxIterationsExceeded)
		}
	}
}
