package namelookup

import (
	"context"

	"example.com/shapes/llm"
)

// Tools runs a tool by its name with its arguments (implemented elsewhere).
type Tools interface {
	Run(ctx context.Context, name, args string) (string, error)
}

// Agent is a turn loop whose tools run through a registry called with the tool call's name
// and arguments: that call is the tool call.
type Agent struct {
	client *llm.Client
	tools  Tools
	Max    int
}

// Run runs the agent until it answers.
func (a *Agent) Run(ctx context.Context, msgs []llm.Message) (string, error) {
	for i := 0; i < a.Max; i++ {
		resp, err := a.client.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		msg := resp.Choices[0].Message
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		for _, tc := range msg.ToolCalls {
			out, err := a.tools.Run(ctx, tc.Function.Name, tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID})
		}
	}
	return "", nil
}
