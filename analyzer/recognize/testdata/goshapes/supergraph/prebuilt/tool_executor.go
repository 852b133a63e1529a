package prebuilt

import (
	"context"
	"fmt"

	"example.com/goshapes/supergraph/tools"
)

// ToolInvocation represents a request to execute a tool
type ToolInvocation struct {
	Tool      string `json:"tool"`
	ToolInput string `json:"tool_input"`
}

// ToolExecutor executes tools based on invocations
type ToolExecutor struct {
	tools map[string]tools.Tool
}

// NewToolExecutor creates a new ToolExecutor with the given tools
func NewToolExecutor(inputTools []tools.Tool) *ToolExecutor {
	toolMap := make(map[string]tools.Tool)
	for _, t := range inputTools {
		toolMap[t.Name()] = t
	}
	return &ToolExecutor{
		tools: toolMap,
	}
}

// Execute executes a single tool invocation
func (te *ToolExecutor) Execute(ctx context.Context, invocation ToolInvocation) (string, error) {
	tool, ok := te.tools[invocation.Tool]
	if !ok {
		return "", fmt.Errorf("tool not found: %s", invocation.Tool)
	}

	return tool.Call(ctx, invocation.ToolInput)
}
