package agentrt

import (
	"context"
	"errors"

	"example.com/shapes/spanmodel/llm"
)

// RunStreamed runs like Run, handing the model's text to onDelta as it streams in.
func (r *Runner) RunStreamed(ctx context.Context, agent *Agent, input string, onDelta func(string)) (*RunResult, error) {
	if agent == nil || agent.Model == nil {
		return nil, errors.New("agents: agent without a model")
	}
	maxTurns := r.Config.MaxTurns
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	st := newRunState(ctx)
	ctx = context.WithValue(ctx, runKey{}, st)
	st.Items = append(st.Items, llm.InputItem{Type: "message", Role: "user", Content: input})
	for turn := 1; turn <= maxTurns; turn++ {
		var final *ModelResponse
		err := agent.Model.StreamResponse(ctx, ModelRequest{Instructions: agent.Instructions, Input: st.Items, Tools: agent.Tools, PrevID: st.LastID},
			func(ev StreamEvent) error {
				if ev.Delta != "" && onDelta != nil {
					onDelta(ev.Delta)
				}
				if ev.Done != nil {
					final = ev.Done
				}
				return nil
			})
		if err != nil {
			return nil, err
		}
		if final == nil {
			return nil, errors.New("agents: stream ended without a response")
		}
		st.LastID = final.ResponseID
		processed, err := processModelResponse(ctx, agent, final)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, processed.Messages...)
		if !processed.HasToolsToRun() {
			return &RunResult{RunID: st.RunID, FinalOutput: processed.Text, Items: st.Items}, nil
		}
		outs, err := runTools(ctx, agent, r.Config.hooks(), processed.Runs)
		if err != nil {
			return nil, err
		}
		st.Items = append(st.Items, outs...)
	}
	return nil, ErrMaxTurns
}

func (c RunConfig) hooks() RunHooks {
	if c.Hooks == nil {
		return NoHooks{}
	}
	return c.Hooks
}
