// Package chatstep is a Step that asks a chat completions API, appends the reply to the shared
// state and runs the tools it asks for from a registry of Go funcs called by reflection.
package chatstep

import (
	"context"
	"fmt"
	"reflect"

	"example.com/shapes/agentsgo/openai"
	"example.com/shapes/opstep"
)

// Step asks the model once and runs the tools of its reply.
type Step struct {
	client openai.Client
	model  string
	tools  map[string]reflect.Value
}

// New returns a step with the given tool funcs (each func(string) string).
func New(client openai.Client, model string, tools map[string]any) *Step {
	s := &Step{client: client, model: model, tools: map[string]reflect.Value{}}
	for name, fn := range tools {
		s.tools[name] = reflect.ValueOf(fn)
	}
	return s
}

// Generate implements opstep.Step.
func (st *Step) Generate(ctx context.Context, s *opstep.State) error {
	params := openai.ChatCompletionNewParams{Model: st.model}
	for _, m := range s.Messages {
		params.Messages = append(params.Messages, openai.ChatCompletionMessage{Role: m.Role, Content: m.Content})
	}
	resp, err := st.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return err
	}
	if len(resp.Choices) == 0 {
		return fmt.Errorf("chatstep: no choices")
	}
	msg := resp.Choices[0].Message
	reply := opstep.Message{Role: "assistant", Content: msg.Content}
	for _, tc := range msg.ToolCalls {
		reply.ToolCalls = append(reply.ToolCalls, opstep.ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: tc.Function.Arguments})
	}
	s.Messages = append(s.Messages, reply)
	for _, tc := range reply.ToolCalls {
		fn, ok := st.tools[tc.Name]
		if !ok {
			s.Messages = append(s.Messages, opstep.Message{Role: "tool", CallID: tc.ID, Content: "unknown tool " + tc.Name})
			continue
		}
		out := fn.Call([]reflect.Value{reflect.ValueOf(tc.Args)})
		s.Messages = append(s.Messages, opstep.Message{Role: "tool", CallID: tc.ID, Content: out[0].String()})
	}
	return nil
}
