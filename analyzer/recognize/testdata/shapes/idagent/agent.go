// Package idagent mints its run ids with a process-wide counter, stores them in a context's
// ID field, and gives each sub-call context its parent.
package idagent

import (
	"context"
	"fmt"
	"sync/atomic"

	"example.com/shapes/llm"
)

var counter int64

// next returns a new id.
func next() string { return fmt.Sprint(atomic.AddInt64(&counter, 1)) }

type common struct {
	ID   string
	Tool string
}

// CallContext is one call of the run tree.
type CallContext struct {
	common
	Parent *CallContext
	Input  string
}

func newContext(input string) CallContext {
	return CallContext{common: common{ID: next()}, Input: input}
}

func (c *CallContext) sub(tool, input string) CallContext {
	return CallContext{common: common{ID: next(), Tool: tool}, Parent: c, Input: input}
}

// Engine runs the loop.
type Engine struct {
	c     *llm.Client
	tools map[string]func(string) string
}

// Run runs the engine.
func (e *Engine) Run(ctx context.Context, input string) (string, error) {
	cc := newContext(input)
	msgs := []llm.Message{{Role: "user", Content: cc.Input}}
	for {
		resp, err := e.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		msgs = append(msgs, m)
		for _, tc := range m.ToolCalls {
			sc := cc.sub(tc.Function.Name, tc.Function.Arguments)
			if t, ok := e.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(sc.Input), ToolCallID: tc.ID})
			}
		}
	}
}
