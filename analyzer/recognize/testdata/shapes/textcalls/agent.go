// Package textcalls has two near-identical tool loops: one reads the structured ToolCalls of
// the reply, the other parses tool calls out of the reply's text.
package textcalls

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	openai "example.com/shapes/goopenai"
)

// ToolCall is a call parsed from text.
type ToolCall struct {
	Name string
	Args map[string]any
}

// ParseToolCalls finds the <tool>{json}</tool> blocks of a reply.
func ParseToolCalls(content string) []ToolCall {
	var out []ToolCall
	for _, part := range strings.Split(content, "<tool>")[1:] {
		body, _, ok := strings.Cut(part, "</tool>")
		if !ok {
			continue
		}
		var tc ToolCall
		if json.Unmarshal([]byte(body), &tc) == nil {
			out = append(out, tc)
		}
	}
	return out
}

// Tool runs with arguments.
type Tool interface {
	Run(ctx context.Context, args map[string]any) (string, error)
}

// Agent is a chat agent.
type Agent struct {
	client *openai.Client
	tools  map[string]Tool
}

// RunText runs a loop whose tool calls are parsed from the reply's text.
func (a *Agent) RunText(ctx context.Context, task string) (string, error) {
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: task}}
	for i := 0; i < 10; i++ {
		resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Messages: msgs})
		if err != nil {
			return "", err
		}
		content := resp.Choices[0].Message.Content
		msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: content})
		calls := ParseToolCalls(content)
		if len(calls) == 0 {
			return content, nil
		}
		for _, c := range calls {
			t, ok := a.tools[c.Name]
			if !ok {
				continue
			}
			out, err := t.Run(ctx, c.Args)
			if err != nil {
				out = "error: " + err.Error()
			}
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleUser, Content: out})
		}
	}
	return "", errors.New("too many steps")
}

// RunStructured is the same loop over the reply's structured ToolCalls.
func (a *Agent) RunStructured(ctx context.Context, task string) (string, error) {
	msgs := []openai.ChatCompletionMessage{{Role: openai.ChatMessageRoleUser, Content: task}}
	for i := 0; i < 10; i++ {
		resp, err := a.client.CreateChatCompletion(ctx, openai.ChatCompletionRequest{Messages: msgs})
		if err != nil {
			return "", err
		}
		msg := resp.Choices[0].Message
		msgs = append(msgs, msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		for _, c := range msg.ToolCalls {
			t, ok := a.tools[c.Function.Name]
			if !ok {
				continue
			}
			var args map[string]any
			_ = json.Unmarshal([]byte(c.Function.Arguments), &args)
			out, err := t.Run(ctx, args)
			if err != nil {
				out = "error: " + err.Error()
			}
			msgs = append(msgs, openai.ChatCompletionMessage{Role: openai.ChatMessageRoleTool, Content: out, ToolCallID: c.ID})
		}
	}
	return "", errors.New("too many steps")
}
