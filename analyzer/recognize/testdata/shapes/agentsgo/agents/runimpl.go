package agents

import (
	"context"
	"fmt"
	"sync"

	"example.com/shapes/agentsgo/openai"
	"example.com/shapes/agentsgo/tracing"
)

// NextStep is what comes after a turn.
type NextStep interface{ isNextStep() }

// NextStepFinalOutput ends the run.
type NextStepFinalOutput struct{ Output any }

// NextStepHandoff hands the run to another agent.
type NextStepHandoff struct{ NewAgent *Agent }

// NextStepRunAgain runs another turn.
type NextStepRunAgain struct{}

func (NextStepFinalOutput) isNextStep() {}
func (NextStepHandoff) isNextStep()     {}
func (NextStepRunAgain) isNextStep()    {}

// SingleStepResult is the result of one turn.
type SingleStepResult struct {
	ModelResponse ModelResponse
	PreStepItems  []RunItem
	NewStepItems  []RunItem
	NextStep      NextStep
}

// ToolRunFunction is one function call to run with its tool.
type ToolRunFunction struct {
	ToolCall openai.ResponseFunctionToolCall
	Tool     FunctionTool
}

// ToolRunHandoff is one handoff call.
type ToolRunHandoff struct {
	ToolCall openai.ResponseFunctionToolCall
	Agent    *Agent
}

// ProcessedResponse is a model response sorted into items and calls.
type ProcessedResponse struct {
	NewItems  []RunItem
	Functions []ToolRunFunction
	Handoffs  []ToolRunHandoff
}

// FunctionToolResult is the result of one tool call.
type FunctionToolResult struct {
	Tool     FunctionTool
	Output   any
	RunItem  RunItem
	ToolCall openai.ResponseFunctionToolCall
}

func processModelResponse(agent *Agent, response ModelResponse) ProcessedResponse {
	functionMap := make(map[string]FunctionTool, len(agent.Tools))
	for _, t := range agent.Tools {
		switch t := t.(type) {
		case FunctionTool:
			functionMap[t.Name] = t
		}
	}
	handoffMap := make(map[string]*Agent, len(agent.Handoffs))
	for _, h := range agent.Handoffs {
		handoffMap["transfer_to_"+h.Name] = h
	}
	var p ProcessedResponse
	for _, item := range response.Output {
		switch item.Type {
		case "message":
			p.NewItems = append(p.NewItems, RunItem{Type: "message_output_item", Raw: openai.ResponseInputItem{Type: "message", Role: "assistant", Content: item.Content}})
		case "function_call":
			call := openai.ResponseFunctionToolCall{Name: item.Name, Arguments: item.Arguments, CallID: item.CallID}
			p.NewItems = append(p.NewItems, RunItem{Type: "tool_call_item", Raw: openai.ResponseInputItem{Type: "function_call", Name: item.Name, Arguments: item.Arguments, CallID: item.CallID}})
			if h, ok := handoffMap[item.Name]; ok {
				p.Handoffs = append(p.Handoffs, ToolRunHandoff{ToolCall: call, Agent: h})
				continue
			}
			if t, ok := functionMap[item.Name]; ok {
				p.Functions = append(p.Functions, ToolRunFunction{ToolCall: call, Tool: t})
			}
		}
	}
	return p
}

func executeToolsAndSideEffects(ctx context.Context, agent *Agent, originalInput string, preStepItems []RunItem, newResponse ModelResponse, processed ProcessedResponse) (*SingleStepResult, error) {
	results, err := executeFunctionToolCalls(ctx, processed.Functions)
	if err != nil {
		return nil, err
	}
	newStepItems := processed.NewItems
	for _, r := range results {
		newStepItems = append(newStepItems, r.RunItem)
	}
	res := &SingleStepResult{ModelResponse: newResponse, PreStepItems: preStepItems, NewStepItems: newStepItems}
	if len(processed.Handoffs) > 0 {
		res.NextStep = NextStepHandoff{NewAgent: processed.Handoffs[0].Agent}
		return res, nil
	}
	if len(processed.Functions) > 0 {
		res.NextStep = NextStepRunAgain{}
		return res, nil
	}
	var text string
	for _, it := range processed.NewItems {
		if it.Type == "message_output_item" {
			text = it.Raw.Content
		}
	}
	res.NextStep = NextStepFinalOutput{Output: text}
	return res, nil
}

func runSingleTool(ctx context.Context, funcTool FunctionTool, toolCall openai.ResponseFunctionToolCall) (any, error) {
	return tracing.FunctionSpan(ctx, funcTool.Name, func(ctx context.Context) (any, error) {
		if hooks != nil {
			hooks.OnToolStart(ctx, funcTool)
		}
		result, err := funcTool.OnInvokeTool(ctx, toolCall.Arguments)
		if err != nil {
			return nil, fmt.Errorf("error running tool %s: %w", funcTool.Name, err)
		}
		return result, nil
	})
}

// RunHooks observe a run.
type RunHooks interface {
	OnToolStart(ctx context.Context, tool FunctionTool)
}

var hooks RunHooks

func executeFunctionToolCalls(ctx context.Context, toolRuns []ToolRunFunction) ([]FunctionToolResult, error) {
	results := make([]FunctionToolResult, len(toolRuns))
	errs := make([]error, len(toolRuns))
	var wg sync.WaitGroup
	for i, toolRun := range toolRuns {
		wg.Go(func() {
			out, err := runSingleTool(ctx, toolRun.Tool, toolRun.ToolCall)
			if err != nil {
				errs[i] = fmt.Errorf("tool %s: %w", toolRun.Tool.Name, err)
				return
			}
			results[i] = FunctionToolResult{Tool: toolRun.Tool, Output: out, ToolCall: toolRun.ToolCall,
				RunItem: RunItem{Type: "tool_call_output_item", Raw: openai.ResponseInputItem{Type: "function_call_output", CallID: toolRun.ToolCall.CallID, Output: fmt.Sprint(out)}}}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return results, nil
}
