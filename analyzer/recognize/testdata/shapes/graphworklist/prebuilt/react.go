// Package prebuilt builds a ReAct agent on the worklist graph: an "agent" node asks the model
// (a langchaingo-style Model interface), a "tools" node runs each tool call of the last message
// through a ToolExecutor one after the other, and a conditional edge goes to "tools" while the
// last message has tool calls, else to END.
package prebuilt

import (
	"context"
	"fmt"

	"example.com/shapes/graphworklist/graph"
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

// CallOption configures one model call.
type CallOption func(*CallOptions)

// CallOptions are the options of a model call.
type CallOptions struct{ Tools []string }

// Model generates content.
type Model interface {
	GenerateContent(ctx context.Context, messages []MessageContent, options ...CallOption) (*ContentResponse, error)
}

// Tool is a callable tool.
type Tool interface {
	Name() string
	Description() string
	Call(ctx context.Context, input string) (string, error)
}

// ToolInvocation is one tool call to execute.
type ToolInvocation struct {
	Tool      string
	ToolInput string
}

// ToolExecutor runs tool calls by name.
type ToolExecutor struct{ tools map[string]Tool }

// NewToolExecutor indexes the tools by name.
func NewToolExecutor(tools []Tool) *ToolExecutor {
	m := map[string]Tool{}
	for _, t := range tools {
		m[t.Name()] = t
	}
	return &ToolExecutor{tools: m}
}

// Execute runs one tool call.
func (e *ToolExecutor) Execute(ctx context.Context, inv ToolInvocation) (string, error) {
	tool, ok := e.tools[inv.Tool]
	if !ok {
		return "", fmt.Errorf("tool not found: %s", inv.Tool)
	}
	return tool.Call(ctx, inv.ToolInput)
}

// AgentState is the agent's state.
type AgentState struct{ Messages []MessageContent }

// CreateReactAgent returns the compiled ReAct graph.
func CreateReactAgent(model Model, tools []Tool) (*graph.StateRunnable, error) {
	toolExecutor := NewToolExecutor(tools)
	var names []string
	for _, t := range tools {
		names = append(names, t.Name())
	}
	workflow := graph.NewStateGraph()
	workflow.AddNode("agent", "calls the model", func(ctx context.Context, state interface{}) (interface{}, error) {
		s, ok := state.(AgentState)
		if !ok {
			return nil, fmt.Errorf("invalid state type: %T", state)
		}
		resp, err := model.GenerateContent(ctx, s.Messages, func(o *CallOptions) { o.Tools = names })
		if err != nil {
			return nil, err
		}
		if len(resp.Choices) == 0 {
			return nil, fmt.Errorf("no choices")
		}
		c := resp.Choices[0]
		s.Messages = append(s.Messages, MessageContent{Role: "ai", Text: c.Content, ToolCalls: c.ToolCalls})
		return s, nil
	})
	workflow.AddNode("tools", "runs the tool calls", func(ctx context.Context, state interface{}) (interface{}, error) {
		s, ok := state.(AgentState)
		if !ok {
			return nil, fmt.Errorf("invalid state type: %T", state)
		}
		last := s.Messages[len(s.Messages)-1]
		for _, tc := range last.ToolCalls {
			out, err := toolExecutor.Execute(ctx, ToolInvocation{Tool: tc.Name, ToolInput: tc.Arguments})
			if err != nil {
				return nil, err
			}
			s.Messages = append(s.Messages, MessageContent{Role: "tool", Text: out, ToolID: tc.ID})
		}
		return s, nil
	})
	workflow.SetEntryPoint("agent")
	workflow.AddConditionalEdge("agent", func(ctx context.Context, state interface{}) string {
		s := state.(AgentState)
		if len(s.Messages) > 0 && len(s.Messages[len(s.Messages)-1].ToolCalls) > 0 {
			return "tools"
		}
		return graph.END
	})
	workflow.AddEdge("tools", "agent")
	return workflow.Compile()
}
