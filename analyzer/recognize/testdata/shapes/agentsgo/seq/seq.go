// Package seq is a runner of the same architecture whose tools run one after the other: the
// output items are told apart by a type switch on the variant each holds, and the default
// bound comes from another package.
package seq

import (
	"context"
	"errors"

	"example.com/shapes/agentsgo/agents"
	"example.com/shapes/agentsgo/openai"
	"example.com/shapes/agentsgo/tracing"
)

// Options configure a run.
type Options struct {
	MaxTurns int
	Model    agents.Model
}

// ErrMaxTurns is returned past the last turn.
var ErrMaxTurns = errors.New("max turns exceeded")

// Runner runs one agent with sequential tools.
type Runner struct{ Opts Options }

// Run runs the agent.
func (r *Runner) Run(ctx context.Context, agent *agents.Agent, input string) (string, error) {
	maxTurns := r.Opts.MaxTurns
	if maxTurns == 0 {
		maxTurns = agents.DefaultMaxTurns
	}
	var final string
	err := tracing.WithTrace(ctx, tracing.TraceParams{WorkflowName: "seq"}, func(ctx context.Context) error {
		items := []openai.ResponseInputItem{{Type: "message", Role: "user", Content: input}}
		currentTurn := 0
		for {
			currentTurn++
			if currentTurn > maxTurns {
				return ErrMaxTurns
			}
			resp, err := r.turn(ctx, agent, items)
			if err != nil {
				return err
			}
			var runs []agents.ToolRunFunction
			var text string
			for _, item := range resp.Output {
				switch v := item.AsAny().(type) {
				case openai.ResponseOutputMessage:
					text = v.Content
				case openai.ResponseFunctionToolCall:
					for _, t := range agent.Tools {
						if ft, ok := t.(agents.FunctionTool); ok && ft.Name == v.Name {
							runs = append(runs, agents.ToolRunFunction{ToolCall: v, Tool: ft})
						}
					}
				}
			}
			if len(runs) == 0 {
				final = text
				return nil
			}
			outs, err := runTools(ctx, runs)
			if err != nil {
				return err
			}
			items = append(items, outs...)
		}
	})
	return final, err
}

func (r *Runner) turn(ctx context.Context, agent *agents.Agent, items []openai.ResponseInputItem) (*agents.ModelResponse, error) {
	return r.Opts.Model.GetResponse(ctx, agents.ModelParams{SystemInstructions: agent.Instructions, Input: items, Tools: agent.Tools})
}

func runTools(ctx context.Context, runs []agents.ToolRunFunction) ([]openai.ResponseInputItem, error) {
	var out []openai.ResponseInputItem
	for _, run := range runs {
		res, err := run.Tool.OnInvokeTool(ctx, run.ToolCall.Arguments)
		if err != nil {
			return nil, err
		}
		s, _ := res.(string)
		out = append(out, openai.ResponseInputItem{Type: "function_call_output", CallID: run.ToolCall.CallID, Output: s})
	}
	return out, nil
}
