// Package prebuilt builds a ReAct agent on the generic state graph: an "agent" node asks the model
// (a langchaingo-style Model interface), a "tools" node runs each tool call by name through a
// ToolExecutor, and the routing goes back to the model while the last message has tool calls.
package prebuilt

import (
	"context"
	"fmt"

	"example.com/shapes/genericgraph/stategraph"
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

// ToolExecutor runs tool calls by name.
type ToolExecutor struct {
	tools map[string]Tool
}

// NewToolExecutor indexes the tools by name.
func NewToolExecutor(tools []Tool) *ToolExecutor {
	m := map[string]Tool{}
	for _, t := range tools {
		m[t.Name()] = t
	}
	return &ToolExecutor{tools: m}
}

// Execute runs one tool call.
func (e *ToolExecutor) Execute(ctx context.Context, tc ToolCall) (string, error) {
	t, ok := e.tools[tc.Name]
	if !ok {
		return "", fmt.Errorf("unknown tool %s", tc.Name)
	}
	return t.Call(ctx, tc.Arguments)
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

func runTools(exec *ToolExecutor) func(ctx context.Context, s AgentState) (AgentState, error) {
	return func(ctx context.Context, s AgentState) (AgentState, error) {
		last := s.Messages[len(s.Messages)-1]
		for _, tc := range last.ToolCalls {
			out, err := exec.Execute(ctx, tc)
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

// CreateReactAgent returns the compiled ReAct graph.
func CreateReactAgent(model Model, tools []Tool) (*stategraph.Runnable[AgentState], error) {
	g := stategraph.NewStateGraph[AgentState]()
	g.AddNode("agent", callModel(model))
	g.AddNode("tools", runTools(NewToolExecutor(tools)))
	g.SetEntryPoint("agent")
	g.AddConditionalEdge("agent", func(ctx context.Context, s AgentState) string {
		if hasToolCalls(s) {
			return "tools"
		}
		return stategraph.END
	})
	g.AddEdge("tools", "agent")
	return g.Compile()
}
