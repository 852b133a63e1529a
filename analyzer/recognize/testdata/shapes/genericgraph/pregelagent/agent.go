// Package pregelagent builds a ReAct agent on the unbounded superstep engine alone (its nodes
// are its own: the flow of the model's reply is followed through pregel only): an "agent" node
// asks the model, a "tools" node looks each tool call's tool up by name and calls it.
package pregelagent

import (
	"context"
	"fmt"

	"example.com/shapes/genericgraph/pregel"
)

// ToolCall is a tool call the model asked for.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// MessageContent is a chat message.
type MessageContent struct {
	Role      string
	Text      string
	ToolCalls []ToolCall
	ToolID    string
}

// ContentChoice is one answer of the model.
type ContentChoice struct {
	Content   string
	ToolCalls []ToolCall
}

// ContentResponse is the model's response.
type ContentResponse struct{ Choices []*ContentChoice }

// Model generates content.
type Model interface {
	GenerateContent(ctx context.Context, msgs []MessageContent, opts ...string) (*ContentResponse, error)
}

// Tool is a callable tool.
type Tool interface {
	Name() string
	Call(ctx context.Context, input string) (string, error)
}

// AgentState is the agent's state: the conversation.
type AgentState struct{ Messages []MessageContent }

// Merge appends the messages of another branch.
func (s AgentState) Merge(o AgentState) AgentState {
	s.Messages = append(s.Messages, o.Messages...)
	return s
}

func callModel(model Model) func(ctx context.Context, s AgentState) (AgentState, error) {
	return func(ctx context.Context, s AgentState) (AgentState, error) {
		resp, err := model.GenerateContent(ctx, s.Messages)
		if err != nil {
			return s, err
		}
		if len(resp.Choices) == 0 {
			return s, fmt.Errorf("no choices")
		}
		c := resp.Choices[0]
		s.Messages = append(s.Messages, MessageContent{Role: "ai", Text: c.Content, ToolCalls: c.ToolCalls})
		return s, nil
	}
}

func runTools(tools map[string]Tool) func(ctx context.Context, s AgentState) (AgentState, error) {
	return func(ctx context.Context, s AgentState) (AgentState, error) {
		last := s.Messages[len(s.Messages)-1]
		for _, tc := range last.ToolCalls {
			t, ok := tools[tc.Name]
			if !ok {
				return s, fmt.Errorf("unknown tool %s", tc.Name)
			}
			out, err := t.Call(ctx, tc.Arguments)
			if err != nil {
				out = "error: " + err.Error()
			}
			s.Messages = append(s.Messages, MessageContent{Role: "tool", Text: out, ToolID: tc.ID})
		}
		return s, nil
	}
}

func hasToolCalls(s AgentState) bool {
	return len(s.Messages) > 0 && len(s.Messages[len(s.Messages)-1].ToolCalls) > 0
}

// CreatePregelAgent returns the same agent on the unbounded superstep engine.
func CreatePregelAgent(model Model, tools []Tool) *pregel.Graph[AgentState] {
	g := pregel.New[AgentState]("agent")
	g.Add("agent", pregel.NodeFunc[AgentState](callModel(model)), func(s AgentState) []string {
		if hasToolCalls(s) {
			return []string{"tools"}
		}
		return []string{pregel.END}
	})
	g.Add("tools", pregel.NodeFunc[AgentState](runTools(byName(tools))), func(AgentState) []string {
		return []string{"agent"}
	})
	return g
}

func byName(tools []Tool) map[string]Tool {
	m := map[string]Tool{}
	for _, t := range tools {
		m[t.Name()] = t
	}
	return m
}
