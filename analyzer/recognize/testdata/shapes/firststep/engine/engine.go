// Package engine is a state-machine engine: Start makes the run's first decision and Continue
// each next one, both through complete, the one place that calls the model; what they return
// is the pending tool calls or the final answer. A driver in another package loops on it.
package engine

import (
	"context"
	"errors"

	"example.com/shapes/llm"
)

// Return is one decision: a final answer, or the tool calls to run before Continue.
type Return struct {
	Result *string
	Calls  []llm.ToolCall
	State  *State
}

// State is the conversation so far.
type State struct{ Msgs []llm.Message }

// CallResult is a tool's output for Continue.
type CallResult struct {
	ID     string
	Output string
}

// Engine makes decisions with a model client.
type Engine struct{ Client *llm.Client }

// Start makes the first decision for an input.
func (e *Engine) Start(ctx context.Context, input string) (*Return, error) {
	if input == "" {
		return nil, errors.New("empty input")
	}
	return e.complete(ctx, &State{Msgs: []llm.Message{{Role: "user", Content: input}}})
}

// Continue feeds the tool results back and makes the next decision.
func (e *Engine) Continue(ctx context.Context, st *State, results ...CallResult) (*Return, error) {
	for _, r := range results {
		st.Msgs = append(st.Msgs, llm.Message{Role: "tool", Content: r.Output, ToolCallID: r.ID})
	}
	return e.complete(ctx, st)
}

func (e *Engine) complete(ctx context.Context, st *State) (*Return, error) {
	resp, err := e.Client.Chat(ctx, llm.Request{Messages: st.Msgs})
	if err != nil {
		return nil, err
	}
	m := resp.Choices[0].Message
	st.Msgs = append(st.Msgs, m)
	ret := &Return{State: st, Calls: m.ToolCalls}
	if len(m.ToolCalls) == 0 {
		ret.Result = &m.Content
	}
	return ret, nil
}
