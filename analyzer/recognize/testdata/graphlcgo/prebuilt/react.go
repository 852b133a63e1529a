// Package prebuilt builds a ReAct agent on the worklist graph with langchaingo's llms.Model
// and tools.Tool (a dependency module with a built-in profile): an "agent" node asks the model,
// a "tools" node runs the tool calls of the last message one after the other through a
// ToolExecutor, and a conditional edge goes to "tools" while the last message has tool calls.
package prebuilt

import (
	"context"
	"fmt"

	"example.com/shapes/graphworklist/graph"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/tools"
)

// ToolInvocation is one tool call to execute.
type ToolInvocation struct {
	Tool      string
	ToolInput string
}

// ToolExecutor runs tool calls by name.
type ToolExecutor struct{ tools map[string]tools.Tool }

// NewToolExecutor indexes the tools by name.
func NewToolExecutor(ts []tools.Tool) *ToolExecutor {
	m := map[string]tools.Tool{}
	for _, t := range ts {
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

func lastToolCalls(messages []llms.MessageContent) []llms.ToolCall {
	if len(messages) == 0 {
		return nil
	}
	var calls []llms.ToolCall
	for _, part := range messages[len(messages)-1].Parts {
		if tc, ok := part.(llms.ToolCall); ok {
			calls = append(calls, tc)
		}
	}
	return calls
}

// CreateReactAgent returns the compiled ReAct graph; the state is the conversation.
func CreateReactAgent(model llms.Model, ts []tools.Tool) (*graph.StateRunnable, error) {
	toolExecutor := NewToolExecutor(ts)
	var defs []llms.Tool
	for _, t := range ts {
		defs = append(defs, llms.Tool{Type: "function", Function: &llms.FunctionDefinition{Name: t.Name(), Description: t.Description()}})
	}
	workflow := graph.NewStateGraph()
	workflow.AddNode("agent", "calls the model", func(ctx context.Context, state interface{}) (interface{}, error) {
		messages, ok := state.([]llms.MessageContent)
		if !ok {
			return nil, fmt.Errorf("invalid state type: %T", state)
		}
		resp, err := model.GenerateContent(ctx, messages, llms.WithTools(defs))
		if err != nil {
			return nil, err
		}
		if len(resp.Choices) == 0 {
			return nil, fmt.Errorf("no choices")
		}
		choice := resp.Choices[0]
		msg := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		if choice.Content != "" {
			msg.Parts = append(msg.Parts, llms.TextPart(choice.Content))
		}
		for _, tc := range choice.ToolCalls {
			msg.Parts = append(msg.Parts, tc)
		}
		return append(messages, msg), nil
	})
	workflow.AddNode("tools", "runs the tool calls", func(ctx context.Context, state interface{}) (interface{}, error) {
		messages, ok := state.([]llms.MessageContent)
		if !ok {
			return nil, fmt.Errorf("invalid state type: %T", state)
		}
		for _, tc := range lastToolCalls(messages) {
			out, err := toolExecutor.Execute(ctx, ToolInvocation{Tool: tc.FunctionCall.Name, ToolInput: tc.FunctionCall.Arguments})
			if err != nil {
				return nil, err
			}
			messages = append(messages, llms.MessageContent{Role: llms.ChatMessageTypeTool,
				Parts: []llms.ContentPart{llms.ToolCallResponse{ToolCallID: tc.ID, Name: tc.FunctionCall.Name, Content: out}}})
		}
		return messages, nil
	})
	workflow.SetEntryPoint("agent")
	workflow.AddConditionalEdge("agent", func(ctx context.Context, state interface{}) string {
		if len(lastToolCalls(state.([]llms.MessageContent))) > 0 {
			return "tools"
		}
		return graph.END
	})
	workflow.AddEdge("tools", "agent")
	return workflow.Compile()
}
