package agentrt

import (
	"context"
	"fmt"
	"log"

	"example.com/shapes/spanmodel/llm"
	"example.com/shapes/spanmodel/span"
)

// Tool is a function the model may call.
type Tool struct {
	Name        string
	Description string
	Schema      map[string]any
	// Invoke runs the tool with the model's JSON arguments.
	Invoke func(ctx context.Context, args string) (string, error)
}

// ToolInfo is what hooks are told of a tool.
type ToolInfo interface{ ToolName() string }

// ToolName implements ToolInfo.
func (t Tool) ToolName() string { return t.Name }

// RunHooks observe a run: told before and after each model and tool call.
type RunHooks interface {
	OnLLMStart(ctx context.Context, agent *Agent, input []llm.InputItem) error
	OnLLMEnd(ctx context.Context, agent *Agent, resp *ModelResponse) error
	OnToolStart(ctx context.Context, agent *Agent, tool ToolInfo) error
	OnToolEnd(ctx context.Context, agent *Agent, tool ToolInfo, result string) error
}

// NoHooks observe nothing.
type NoHooks struct{}

// OnLLMStart implements RunHooks.
func (NoHooks) OnLLMStart(context.Context, *Agent, []llm.InputItem) error { return nil }

// OnLLMEnd implements RunHooks.
func (NoHooks) OnLLMEnd(context.Context, *Agent, *ModelResponse) error { return nil }

// OnToolStart implements RunHooks.
func (NoHooks) OnToolStart(context.Context, *Agent, ToolInfo) error { return nil }

// OnToolEnd implements RunHooks.
func (NoHooks) OnToolEnd(context.Context, *Agent, ToolInfo, string) error { return nil }

// LogHooks log every call.
type LogHooks struct{ Logger *log.Logger }

// OnLLMStart implements RunHooks.
func (h LogHooks) OnLLMStart(_ context.Context, agent *Agent, input []llm.InputItem) error {
	h.Logger.Printf("%s: model call with %d items", agent.Name, len(input))
	return nil
}

// OnLLMEnd implements RunHooks.
func (h LogHooks) OnLLMEnd(_ context.Context, agent *Agent, resp *ModelResponse) error {
	h.Logger.Printf("%s: %d output items", agent.Name, len(resp.Output))
	return nil
}

// OnToolStart implements RunHooks.
func (h LogHooks) OnToolStart(_ context.Context, agent *Agent, tool ToolInfo) error {
	if t, ok := tool.(Tool); ok && t.Invoke == nil {
		return fmt.Errorf("tool %s has no function", t.Name)
	}
	h.Logger.Printf("%s: tool %s", agent.Name, tool.ToolName())
	return nil
}

// OnToolEnd implements RunHooks.
func (h LogHooks) OnToolEnd(_ context.Context, agent *Agent, tool ToolInfo, result string) error {
	h.Logger.Printf("%s: tool %s returned %d bytes", agent.Name, tool.ToolName(), len(result))
	return nil
}

// ToolRun is one function call with the tool its name selects.
type ToolRun struct {
	Call llm.OutputItem
	Tool Tool
}

// ProcessedResponse is a model response sorted into messages and calls to run.
type ProcessedResponse struct {
	Messages []llm.InputItem
	Runs     []ToolRun
	Text     string
}

// HasToolsToRun reports whether the response asked for tools.
func (p ProcessedResponse) HasToolsToRun() bool { return len(p.Runs) > 0 }

// processModelResponse sorts the output items of resp: messages, and function calls paired
// with the agent's tool of that name.
func processModelResponse(ctx context.Context, agent *Agent, resp *ModelResponse) (ProcessedResponse, error) {
	byName := make(map[string]Tool, len(agent.Tools))
	for _, t := range agent.Tools {
		byName[t.Name] = t
	}
	var p ProcessedResponse
	for _, item := range resp.Output {
		switch item.Type {
		case "message":
			p.Messages = append(p.Messages, llm.InputItem{Type: "message", Role: "assistant", Content: item.Text})
			p.Text = item.Text
		case "function_call":
			t, ok := byName[item.Name]
			if !ok {
				err := fmt.Errorf("model called unknown tool %q", item.Name)
				if s := span.Current(ctx); s != nil {
					s.Err = err
				}
				return ProcessedResponse{}, err
			}
			p.Messages = append(p.Messages, llm.InputItem{Type: "function_call", CallID: item.CallID, Name: item.Name, Arguments: item.Arguments})
			p.Runs = append(p.Runs, ToolRun{Call: item, Tool: t})
		}
	}
	return p, nil
}

// runTools runs the calls one after the other, each in a span, telling the hooks.
func runTools(ctx context.Context, agent *Agent, hooks RunHooks, runs []ToolRun) ([]llm.InputItem, error) {
	var outs []llm.InputItem
	for _, tr := range runs {
		var result string
		err := span.WithSpan(ctx, "tool:"+tr.Tool.Name, func(ctx context.Context) error {
			if err := hooks.OnToolStart(ctx, agent, tr.Tool); err != nil {
				return err
			}
			out, err := tr.Tool.Invoke(ctx, tr.Call.Arguments)
			if err != nil {
				out = "error: " + err.Error()
			}
			result = out
			return hooks.OnToolEnd(ctx, agent, tr.Tool, out)
		})
		if err != nil {
			return nil, err
		}
		outs = append(outs, llm.InputItem{Type: "function_call_output", CallID: tr.Call.CallID, Output: result})
	}
	return outs, nil
}
