// Package statemachine keeps its step count in a struct and checks it in a helper of the loop;
// the model is reached through a helper.
package statemachine

import (
	"context"

	"example.com/shapes/llm"
)

// Machine is a run.
type Machine struct {
	c        *llm.Client
	tools    map[string]func(string) string
	history  []llm.Message
	steps    int
	MaxSteps int
	Stop     string
}

func (m *Machine) think(ctx context.Context) (*llm.Response, error) {
	return m.c.Chat(ctx, llm.Request{Messages: m.history})
}

func (m *Machine) exceeded() bool {
	if m.steps >= m.MaxSteps {
		m.Stop = "max_steps"
		return true
	}
	return false
}

// Drive runs the machine.
func (m *Machine) Drive(ctx context.Context) error {
	for {
		m.steps++
		if m.exceeded() {
			return nil
		}
		resp, err := m.think(ctx)
		if err != nil {
			return err
		}
		msg := resp.Choices[0].Message
		m.history = append(m.history, msg)
		if len(msg.ToolCalls) == 0 {
			m.Stop = "goal_reached"
			return nil
		}
		for _, tc := range msg.ToolCalls {
			fn := m.tools[tc.Function.Name]
			m.history = append(m.history, llm.Message{Role: "tool", Content: fn(tc.Function.Arguments)})
		}
	}
}
