package optparent

import (
	"context"
	"errors"

	openai "example.com/goshapes/goopenai"
)

// CallOptions are the options of one call.
type CallOptions struct {
	ParentRunID string
}

// Tool runs a tool on its arguments.
type Tool func(ctx context.Context, args string) (string, error)

// Executor runs a tool loop.
type Executor struct {
	client   *openai.Client
	tools    map[string]Tool
	maxSteps int
}

// Run runs the loop under a callback manager whose parent is the caller's run.
func (e *Executor) Run(ctx context.Context, input string, optFns ...func(*CallOptions)) (string, error) {
	opts := CallOptions{}
	for _, fn := range optFns {
		fn(&opts)
	}
	cm := NewManager(false, func(mo *ManagerOptions) {
		mo.ParentRunID = opts.ParentRunID
	})
	_ = cm.OnChainStart("executor")
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: input}}
	for i := 0; i < e.maxSteps; i++ {
		resp, err := e.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Messages: msgs})
		if err != nil {
			return "", err
		}
		msg := resp.Choices[0].Message
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		for _, tc := range msg.ToolCalls {
			tool, ok := e.tools[tc.Function.Name]
			if !ok {
				continue
			}
			out, err := tool(ctx, tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: out, ToolCallID: tc.ID})
		}
	}
	return "", errors.New("max steps reached")
}
