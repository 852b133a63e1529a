// Package eqlimit is a chat agent whose turn loop has no condition: a local limit is tested
// for equality with a counter inside the body, the run ends there with a final answer the
// model is asked for without tools, and the counter grows before each continue.
package eqlimit

import (
	"context"
	"errors"
	"fmt"

	openai "example.com/shapes/goopenai"
)

// Agent chats with tools.
type Agent struct {
	Client *openai.Client
	Model  string
	Tools  map[string]func(ctx context.Context, args string) (string, error)
}

// Chat answers a prompt.
func (a *Agent) Chat(ctx context.Context, prompt string) (string, error) {
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: prompt}}
	limit := 14
	iterations := 0
	for {
		if iterations == limit {
			return a.final(ctx, msgs)
		}
		resp, err := a.Client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: a.Model, Messages: msgs})
		if err != nil {
			return "", fmt.Errorf("completion: %w", err)
		}
		if len(resp.Choices) == 0 {
			return "", errors.New("empty reply")
		}
		msg := resp.Choices[0].Message
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		for _, tc := range msg.ToolCalls {
			tool, ok := a.Tools[tc.Function.Name]
			if !ok {
				msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: "no such tool", ToolCallID: tc.ID})
				continue
			}
			out, err := tool(ctx, tc.Function.Arguments)
			if err != nil {
				out = "error: " + err.Error()
			}
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: out, ToolCallID: tc.ID})
		}
		iterations++
		continue
	}
}

// final asks for an answer without tools.
func (a *Agent) final(ctx context.Context, msgs []openai.ChatCompletionMessage) (string, error) {
	msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: "answer now"})
	resp, err := a.Client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: a.Model, Messages: msgs})
	if err != nil {
		return "", err
	}
	if len(resp.Choices) == 0 {
		return "", errors.New("empty reply")
	}
	return resp.Choices[0].Message.Content, nil
}
