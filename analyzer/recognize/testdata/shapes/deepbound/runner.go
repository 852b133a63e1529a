package deepbound

import (
	"context"

	"example.com/shapes/llm"
)

// Params configure a runner; MaxIterations 0 means unlimited.
type Params struct{ MaxIterations int }

// Runner runs a conversation step by step.
type Runner struct {
	c      *llm.Client
	Params Params
	count  int
	done   bool
	last   string
	msgs   []llm.Message
	tools  map[string]func(string) string
}

func (r *Runner) prepare() (*llm.Request, error) { return r.plan() }

func (r *Runner) plan() (*llm.Request, error) {
	if r.Params.MaxIterations > 0 && r.count >= r.Params.MaxIterations {
		r.done = true
		return nil, nil
	}
	r.count++
	return &llm.Request{Messages: r.msgs}, nil
}

// Run runs until the model answers or the limit is reached.
func (r *Runner) Run(ctx context.Context) (string, error) {
	for {
		req, err := r.prepare()
		if err != nil {
			return "", err
		}
		if req == nil {
			return r.last, nil
		}
		resp, err := r.c.Chat(ctx, *req)
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		r.last = m.Content
		r.msgs = append(r.msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := r.tools[tc.Function.Name]; ok {
				r.msgs = append(r.msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
}
