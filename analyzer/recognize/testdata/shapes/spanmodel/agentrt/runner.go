// Package agentrt is a runner in the style of the agents SDKs: a Runner drives an Agent's turns,
// asking a Model (an interface with one implementation per provider API) for each decision,
// sorting the answer into tool calls and running them, until the model answers with text.
package agentrt

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"example.com/shapes/spanmodel/llm"
	"example.com/shapes/spanmodel/span"
)

// DefaultMaxTurns bounds a run when its config does not.
const DefaultMaxTurns = 12

// ErrMaxTurns is returned when a run used up its turns.
var ErrMaxTurns = errors.New("agents: max turns exceeded")

// Agent is a model with instructions and tools.
type Agent struct {
	Name         string
	Instructions string
	Model        Model
	Tools        []Tool
}

// RunConfig configures a run.
type RunConfig struct {
	MaxTurns int
	Hooks    RunHooks
}

// RunState is one run: its ids and what it produced.
type RunState struct {
	RunID       string
	TraceID     string
	ParentRunID string
	Items       []llm.InputItem
	LastID      string
	Turns       int
}

// RunResult is what a run returns.
type RunResult struct {
	RunID       string
	FinalOutput string
	Items       []llm.InputItem
}

// Runner runs agents.
type Runner struct{ Config RunConfig }

type runKey struct{}

func runFrom(ctx context.Context) *RunState {
	s, _ := ctx.Value(runKey{}).(*RunState)
	return s
}

func newRunState(ctx context.Context) *RunState {
	st := &RunState{RunID: "run_" + uuid.NewString()}
	if parent := runFrom(ctx); parent != nil {
		st.ParentRunID = parent.RunID
		st.TraceID = parent.TraceID
	} else {
		st.TraceID = "trace_" + uuid.NewString()
	}
	return st
}

// Run runs agent on input until it answers without calling tools.
func (r *Runner) Run(ctx context.Context, agent *Agent, input string) (*RunResult, error) {
	if agent == nil || agent.Model == nil {
		return nil, errors.New("agents: agent without a model")
	}
	maxTurns := r.Config.MaxTurns
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	hooks := r.Config.Hooks
	if hooks == nil {
		hooks = NoHooks{}
	}
	st := newRunState(ctx)
	ctx = context.WithValue(ctx, runKey{}, st)
	st.Items = append(st.Items, llm.InputItem{Type: "message", Role: "user", Content: input})
	for st.Turns < maxTurns {
		st.Turns++
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		resp, err := r.getResponse(ctx, agent, hooks, st)
		if err != nil {
			return nil, fmt.Errorf("turn %d: %w", st.Turns, err)
		}
		st.LastID = resp.ResponseID
		processed, err := processModelResponse(ctx, agent, resp)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, processed.Messages...)
		if !processed.HasToolsToRun() {
			return &RunResult{RunID: st.RunID, FinalOutput: processed.Text, Items: st.Items}, nil
		}
		outs, err := runTools(ctx, agent, hooks, processed.Runs)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, outs...)
	}
	return nil, ErrMaxTurns
}

// getResponse asks the agent's model for the next decision, telling the hooks.
func (r *Runner) getResponse(ctx context.Context, agent *Agent, hooks RunHooks, st *RunState) (*ModelResponse, error) {
	if err := hooks.OnLLMStart(ctx, agent, st.Items); err != nil {
		return nil, err
	}
	var resp *ModelResponse
	err := span.WithSpan(ctx, "turn", func(ctx context.Context) error {
		var err error
		resp, err = agent.Model.GetResponse(ctx, ModelRequest{Instructions: agent.Instructions, Input: st.Items, Tools: agent.Tools, PrevID: st.LastID})
		return err
	})
	if err != nil {
		return nil, err
	}
	if err := hooks.OnLLMEnd(ctx, agent, resp); err != nil {
		return nil, err
	}
	return resp, nil
}

// AsTool turns agent into a tool another agent may call: each call is a child run of the run
// that called it.
func (a *Agent) AsTool(name, description string) Tool {
	return Tool{Name: name, Description: description, Invoke: func(ctx context.Context, args string) (string, error) {
		res, err := (&Runner{}).Run(ctx, a, args)
		if err != nil {
			return "", err
		}
		return res.FinalOutput, nil
	}}
}
