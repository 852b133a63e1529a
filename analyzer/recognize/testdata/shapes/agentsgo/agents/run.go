// Package agents is a Go port of a runner-style agents SDK: the run loop lives in a closure
// handed to a tracing wrapper, each turn goes several calls deep to the model, tool calls are
// collected from a union of output items and run in goroutines, and a streamed run goes on in
// a goroutine.
package agents

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"example.com/shapes/agentsgo/openai"
	"example.com/shapes/agentsgo/tracing"
)

// FunctionTool is a tool backed by a function.
type FunctionTool struct {
	Name         string
	Description  string
	OnInvokeTool func(ctx context.Context, arguments string) (any, error)
}

// Tool is any tool.
type Tool interface{ ToolName() string }

// ToolName implements Tool.
func (t FunctionTool) ToolName() string { return t.Name }

// ComputerTool is a tool the runner handles itself.
type ComputerTool struct{}

// ToolName implements Tool.
func (ComputerTool) ToolName() string { return "computer" }

// Agent is a configured agent.
type Agent struct {
	Name         string
	Instructions string
	Model        string
	Tools        []Tool
	Handoffs     []*Agent
}

// RunConfig configures a run.
type RunConfig struct {
	ModelProvider ModelProvider
	MaxTurns      int
	WorkflowName  string
	TraceID       string
}

// RunResult is the result of a run.
type RunResult struct {
	Input        string
	NewItems     []RunItem
	RawResponses []ModelResponse
	FinalOutput  any
	LastAgent    *Agent
}

// RunItem is one item a run produced.
type RunItem struct {
	Type string
	Raw  openai.ResponseInputItem
}

// AgentsError is the base error.
type AgentsError struct{ Message string }

func (e AgentsError) Error() string { return e.Message }

// MaxTurnsExceededError is returned when a run takes more turns than allowed.
type MaxTurnsExceededError struct{ AgentsError }

// MaxTurnsExceededErrorf builds the error.
func MaxTurnsExceededErrorf(format string, a ...any) MaxTurnsExceededError {
	return MaxTurnsExceededError{AgentsError{Message: fmt.Sprintf(format, a...)}}
}

func runInputGuardrails(ctx context.Context, agent *Agent, input string) error {
	if input == "forbidden" {
		return errors.New("input guardrail tripwire triggered")
	}
	return nil
}

// Runner runs agents.
type Runner struct{ Config RunConfig }

// DefaultRunner is the runner of the package-level functions.
var DefaultRunner = Runner{}

// Run runs an agent with the default runner.
func Run(ctx context.Context, startingAgent *Agent, input string) (*RunResult, error) {
	return DefaultRunner.Run(ctx, startingAgent, input)
}

// Run runs an agent until it produces a final output.
func (r Runner) Run(ctx context.Context, startingAgent *Agent, input string) (*RunResult, error) {
	if startingAgent == nil {
		return nil, errors.New("StartingAgent must not be nil")
	}
	maxTurns := r.Config.MaxTurns
	if maxTurns == 0 {
		maxTurns = DefaultMaxTurns
	}
	var runResult *RunResult
	err := manageTraceCtx(ctx, tracing.TraceParams{WorkflowName: r.Config.WorkflowName, TraceID: r.Config.TraceID}, func(ctx context.Context) error {
		currentTurn := 0
		currentAgent := startingAgent
		var generatedItems []RunItem
		var modelResponses []ModelResponse
		for {
			currentTurn++
			if currentTurn > maxTurns {
				return MaxTurnsExceededErrorf("max turns (%d) exceeded", maxTurns)
			}
			var turnResult *SingleStepResult
			var err error
			if currentTurn == 1 {
				var wg sync.WaitGroup
				var guardErr error
				wg.Go(func() { guardErr = runInputGuardrails(ctx, currentAgent, input) })
				wg.Go(func() { turnResult, err = r.runSingleTurn(ctx, currentAgent, input, generatedItems) })
				wg.Wait()
				if guardErr != nil {
					return guardErr
				}
			} else {
				turnResult, err = r.runSingleTurn(ctx, currentAgent, input, generatedItems)
			}
			if err != nil {
				return err
			}
			modelResponses = append(modelResponses, turnResult.ModelResponse)
			generatedItems = append(turnResult.PreStepItems, turnResult.NewStepItems...)
			switch nextStep := turnResult.NextStep.(type) {
			case NextStepFinalOutput:
				runResult = &RunResult{Input: input, NewItems: generatedItems, RawResponses: modelResponses, FinalOutput: nextStep.Output, LastAgent: currentAgent}
				return nil
			case NextStepHandoff:
				currentAgent = nextStep.NewAgent
			case NextStepRunAgain:
			default:
				return fmt.Errorf("unexpected next step type %T", nextStep)
			}
		}
	})
	return runResult, err
}

// manageTraceCtx runs fn in a new trace unless ctx already has one.
func manageTraceCtx(ctx context.Context, params tracing.TraceParams, fn func(context.Context) error) error {
	if tracing.HasTrace(ctx) {
		return fn(ctx)
	}
	return tracing.WithTrace(ctx, params, fn)
}

func (r Runner) runSingleTurn(ctx context.Context, agent *Agent, originalInput string, generatedItems []RunItem) (*SingleStepResult, error) {
	input := []openai.ResponseInputItem{{Type: "message", Role: "user", Content: originalInput}}
	for _, item := range generatedItems {
		input = append(input, item.Raw)
	}
	newResponse, err := r.getNewResponse(ctx, agent, input)
	if err != nil {
		return nil, err
	}
	processed := processModelResponse(agent, *newResponse)
	return executeToolsAndSideEffects(ctx, agent, originalInput, generatedItems, *newResponse, processed)
}

func (r Runner) getNewResponse(ctx context.Context, agent *Agent, input []openai.ResponseInputItem) (*ModelResponse, error) {
	model, err := r.getModel(agent)
	if err != nil {
		return nil, err
	}
	return model.GetResponse(ctx, ModelParams{SystemInstructions: agent.Instructions, Input: input, Tools: agent.Tools})
}

func (r Runner) getModel(agent *Agent) (Model, error) {
	provider := r.Config.ModelProvider
	if provider == nil {
		provider = &OpenAIProvider{UseResponses: true}
	}
	return provider.GetModel(agent.Model)
}
