// Package genloop runs its turn loop in the iterator an entry returns: the bound's outcome is
// the closure's last statement (yield(nil, ErrMaxIterationsExceeded), no return after it),
// and a final answer is yielded and returned inside the loop.
package genloop

import (
	"context"
	"errors"
	"iter"

	"example.com/shapes/llm"
)

// Msg is a message the run yields.
type Msg struct {
	Role    string
	Content string
}

// ErrMaxIterationsExceeded is yielded when the run runs out of iterations.
var ErrMaxIterationsExceeded = errors.New("genloop: max iterations exceeded")

// Tool runs a tool.
type Tool func(ctx context.Context, args string) (string, error)

// Agent runs a model with tools.
type Agent struct {
	client  *llm.Client
	tools   map[string]Tool
	maxIter int
}

// New returns an agent.
func New(c *llm.Client, tools map[string]Tool) *Agent {
	return &Agent{client: c, tools: tools, maxIter: 20}
}

// Run answers in as an iterator of messages.
func (a *Agent) Run(ctx context.Context, in string) iter.Seq2[*Msg, error] {
	return func(yield func(*Msg, error) bool) {
		msgs := []llm.Message{{Role: "user", Content: in}}
		for i := 0; i < a.maxIter; i++ {
			resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
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
					out = err.Error()
				}
				if !yield(&Msg{Role: "tool", Content: out}, nil) {
					return
				}
				msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
			}
		}
		yield(nil, ErrMaxIterationsExceeded)
	}
}
