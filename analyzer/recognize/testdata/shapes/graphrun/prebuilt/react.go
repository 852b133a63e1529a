// Package prebuilt builds a ReAct agent on the state graph: an "agent" node asks the model,
// a "tools" node runs each tool call by name, and a conditional edge goes to "tools" while
// the last message has tool calls, else to END.
package prebuilt

import (
	"context"
	"fmt"

	"example.com/shapes/graphrun/graph"
)

// ToolCall is a tool call the model asked for.
type ToolCall struct {
	ID        string
	Name      string
	Arguments string
}

// Message is a chat message.
type Message struct {
	Role      string
	Content   string
	ToolCalls []ToolCall
	ToolID    string
}

// Choice is one answer of the model.
type Choice struct {
	Content   string
	ToolCalls []ToolCall
}

// ContentResponse is the model's response.
type ContentResponse struct{ Choices []*Choice }

// Model generates content.
type Model interface {
	GenerateContent(ctx context.Context, msgs []Message, opts ...string) (*ContentResponse, error)
}

// Tool is a callable tool.
type Tool interface {
	Name() string
	Call(ctx context.Context, input string) (string, error)
}

// State is the agent's state: the conversation.
type State struct{ Messages []Message }

// NewReactAgent returns the compiled ReAct graph.
func NewReactAgent(model Model, tools []Tool) (*graph.Runnable, error) {
	g := graph.NewStateGraph()
	g.AddNode("agent", func(ctx context.Context, st any) (any, error) {
		s := st.(State)
		resp, err := model.GenerateContent(ctx, s.Messages)
		if err != nil {
			return s, err
		}
		if len(resp.Choices) == 0 {
			return s, fmt.Errorf("no choices")
		}
		c := resp.Choices[0]
		s.Messages = append(s.Messages, Message{Role: "assistant", Content: c.Content, ToolCalls: c.ToolCalls})
		return s, nil
	})
	g.AddNode("tools", func(ctx context.Context, st any) (any, error) {
		s := st.(State)
		last := s.Messages[len(s.Messages)-1]
		for _, tc := range last.ToolCalls {
			var tool Tool
			for _, t := range tools {
				if t.Name() == tc.Name {
					tool = t
				}
			}
			if tool == nil {
				return s, fmt.Errorf("unknown tool %s", tc.Name)
			}
			out, err := tool.Call(ctx, tc.Arguments)
			if err != nil {
				out = "error: " + err.Error()
			}
			s.Messages = append(s.Messages, Message{Role: "tool", Content: out, ToolID: tc.ID})
		}
		return s, nil
	})
	g.SetEntryPoint("agent")
	g.AddConditionalEdges("agent", func(ctx context.Context, st any) string {
		s := st.(State)
		if len(s.Messages[len(s.Messages)-1].ToolCalls) > 0 {
			return "tools"
		}
		return graph.END
	})
	g.AddEdge("tools", "agent")
	return g.Compile()
}
