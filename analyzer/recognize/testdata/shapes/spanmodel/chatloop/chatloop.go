// Package chatloop is a chat-completions agent whose every provider request and tool run goes
// through the same span helper, and whose loop hands each response to a parser (that takes the
// context, to record what it could not parse on the current span) returning the tool calls to
// run.
package chatloop

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"example.com/shapes/spanmodel/llm"
	"example.com/shapes/spanmodel/span"
)

// ToolFunc runs one tool.
type ToolFunc func(ctx context.Context, args json.RawMessage) (string, error)

// ToolCall is one call the model asked for.
type ToolCall struct {
	ID   string
	Name string
	Args json.RawMessage
}

// Agent runs a chat model with tools.
type Agent struct {
	Client   llm.Client
	Model    string
	Tools    map[string]ToolFunc
	MaxTurns int
}

// ErrTooManyTurns is returned when the model keeps calling tools.
var ErrTooManyTurns = errors.New("chatloop: too many turns")

// Chat answers prompt, calling tools as the model asks.
func (a *Agent) Chat(ctx context.Context, prompt string) (string, error) {
	msgs := []llm.ChatMessage{{Role: "user", Content: prompt}}
	for turn := 0; turn < a.MaxTurns; turn++ {
		cc, err := a.complete(ctx, msgs)
		if err != nil {
			return "", err
		}
		calls, text, err := a.parse(ctx, cc)
		if err != nil {
			return "", err
		}
		if len(calls) == 0 {
			return text, nil
		}
		assistant := llm.ChatMessage{Role: "assistant", Content: text}
		for _, c := range calls {
			tc := llm.ChatToolCall{ID: c.ID}
			tc.Function.Name, tc.Function.Arguments = c.Name, string(c.Args)
			assistant.ToolCalls = append(assistant.ToolCalls, tc)
		}
		msgs = append(msgs, assistant)
		for _, c := range calls {
			fn, ok := a.Tools[c.Name]
			if !ok {
				msgs = append(msgs, llm.ChatMessage{Role: "tool", ToolCallID: c.ID, Content: "unknown tool " + c.Name})
				continue
			}
			var out string
			err := span.WithSpan(ctx, "tool "+c.Name, func(ctx context.Context) error {
				var err error
				out, err = fn(ctx, c.Args)
				return err
			})
			if err != nil {
				out = "error: " + err.Error()
			}
			msgs = append(msgs, llm.ChatMessage{Role: "tool", ToolCallID: c.ID, Content: out})
		}
	}
	return "", ErrTooManyTurns
}

// complete sends one request in a span.
func (a *Agent) complete(ctx context.Context, msgs []llm.ChatMessage) (*llm.ChatCompletion, error) {
	var params []llm.ToolParam
	for name := range a.Tools {
		params = append(params, llm.ToolParam{Name: name})
	}
	var cc *llm.ChatCompletion
	err := span.WithSpan(ctx, "chat "+a.Model, func(ctx context.Context) error {
		var err error
		cc, err = a.Client.Chat.Completions.New(ctx, llm.ChatCompletionNewParams{Model: a.Model, Messages: msgs, Tools: params})
		return err
	})
	return cc, err
}

// parse returns the tool calls and the text of the first choice; a call whose arguments are
// not JSON is recorded on the current span and skipped.
func (a *Agent) parse(ctx context.Context, cc *llm.ChatCompletion) ([]ToolCall, string, error) {
	if len(cc.Choices) == 0 {
		return nil, "", errors.New("chatloop: no choices")
	}
	msg := cc.Choices[0].Message
	var calls []ToolCall
	for _, tc := range msg.ToolCalls {
		if !json.Valid([]byte(tc.Function.Arguments)) {
			if s := span.Current(ctx); s != nil {
				s.Err = fmt.Errorf("tool call %s: arguments are not JSON", tc.ID)
			}
			continue
		}
		calls = append(calls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: json.RawMessage(tc.Function.Arguments)})
	}
	return calls, msg.Content, nil
}
