// Package lenbound holds turn loops bounded by how much the history they append to has grown
// (len(history)-initLen < maxTurns) or by the length of the list of steps they record.
package lenbound

import (
	"context"

	"example.com/shapes/llm"
)

// Agent runs tools for a model.
type Agent struct {
	c        *llm.Client
	tools    map[string]func(string) string
	MaxSteps int
	steps    []llm.Message
}

// Run leaves when the history has grown by maxTurns messages.
func (a *Agent) Run(ctx context.Context, messages []llm.Message, maxTurns int) ([]llm.Message, error) {
	initLen := len(messages)
	history := append([]llm.Message(nil), messages...)
	for len(history)-initLen < maxTurns {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: history})
		if err != nil {
			return history, err
		}
		m := resp.Choices[0].Message
		history = append(history, m)
		if len(m.ToolCalls) == 0 {
			return history, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				history = append(history, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return history, nil
}

// Steps leaves when MaxSteps steps are recorded.
func (a *Agent) Steps(ctx context.Context, msgs []llm.Message) (*llm.Message, error) {
	for len(a.steps) < a.MaxSteps {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return nil, err
		}
		m := resp.Choices[0].Message
		a.steps = append(a.steps, m)
		if len(m.ToolCalls) == 0 {
			return &m, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return nil, nil
}
