// Package handedout is an assistant of an unexported type, handed out by the exported
// constructor New: its exported Consult hands the conversation to an unexported helper, which
// hands it to another holding the turn loop. Nothing but New makes the type reachable.
package handedout

import (
	"context"
	"encoding/json"
	"fmt"

	openai "example.com/shapes/goopenai"
)

// Tool is a callable tool.
type Tool interface {
	Name() string
	Call(ctx context.Context, args map[string]any) (string, error)
}

// assistant answers questions with tools.
type assistant struct {
	client   *openai.Client
	model    string
	tools    map[string]Tool
	maxSteps int
}

// New makes an assistant.
func New(token string, tools ...Tool) *assistant {
	a := &assistant{client: openai.NewClient(token), model: "gpt-4o", tools: map[string]Tool{}, maxSteps: 8}
	for _, t := range tools {
		a.tools[t.Name()] = t
	}
	return a
}

// Consult answers one question.
func (a *assistant) Consult(ctx context.Context, question string) (string, error) {
	if question == "" {
		return "", fmt.Errorf("empty question")
	}
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: question}}
	return a.converse(ctx, msgs)
}

func (a *assistant) converse(ctx context.Context, msgs []openai.ChatCompletionMessage) (string, error) {
	sys := openai.ChatCompletionMessage{Role: openai.ChatMessageRoleSystem, Content: "be brief"}
	return a.loop(ctx, append([]openai.ChatCompletionMessage{sys}, msgs...))
}

func (a *assistant) loop(ctx context.Context, msgs []openai.ChatCompletionMessage) (string, error) {
	for step := 0; step < a.maxSteps; step++ {
		resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Model: a.model, Messages: msgs})
		if err != nil {
			return "", fmt.Errorf("chat: %w", err)
		}
		if len(resp.Choices) == 0 {
			return "", fmt.Errorf("no choices")
		}
		msg := resp.Choices[0].Message
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		for _, tc := range msg.ToolCalls {
			var args map[string]any
			_ = json.Unmarshal([]byte(tc.Function.Arguments), &args)
			out := "unknown tool"
			if t, ok := a.tools[tc.Function.Name]; ok {
				out, _ = t.Call(ctx, args)
			}
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: out, ToolCallID: tc.ID})
		}
	}
	return "", fmt.Errorf("no answer after %d steps", a.maxSteps)
}

// hidden is an unexported type no exported function, method or variable hands out.
type hidden struct{ a *assistant }

// Consult runs the assistant's loop; only this package can reach it.
func (h *hidden) Consult(ctx context.Context, question string) (string, error) {
	return h.a.loop(ctx, nil)
}
