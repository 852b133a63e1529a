package agents

import (
	"context"
	"errors"
	"fmt"
)

// StreamEvent is one event of a streamed run.
type StreamEvent struct {
	Type string
	Item RunItem
}

// RunResultStreaming is the handle of a streamed run: its events arrive while the run goes on.
type RunResultStreaming struct {
	FinalOutput any
	Events      chan StreamEvent
	err         error
}

// Err returns the run's error once its events are drained.
func (r *RunResultStreaming) Err() error { return r.err }

// RunStreamed starts a streamed run and returns its handle at once.
func (r Runner) RunStreamed(ctx context.Context, startingAgent *Agent, input string) (*RunResultStreaming, error) {
	if startingAgent == nil {
		return nil, errors.New("StartingAgent must not be nil")
	}
	maxTurns := r.Config.MaxTurns
	if maxTurns == 0 {
		maxTurns = DefaultMaxTurns
	}
	streamedResult := &RunResultStreaming{Events: make(chan StreamEvent, 64)}
	go r.runStreamedImpl(ctx, startingAgent, input, maxTurns, streamedResult)
	return streamedResult, nil
}

func (r Runner) runStreamedImpl(ctx context.Context, startingAgent *Agent, input string, maxTurns int, streamedResult *RunResultStreaming) {
	defer close(streamedResult.Events)
	currentTurn := 0
	currentAgent := startingAgent
	var generatedItems []RunItem
	for {
		currentTurn++
		if currentTurn > maxTurns {
			streamedResult.err = MaxTurnsExceededError{AgentsError{Message: fmt.Sprintf("max turns (%d) exceeded", maxTurns)}}
			return
		}
		turnResult, err := r.runSingleTurnStreamed(ctx, currentAgent, input, generatedItems, streamedResult)
		if err != nil {
			streamedResult.err = err
			return
		}
		generatedItems = append(turnResult.PreStepItems, turnResult.NewStepItems...)
		switch nextStep := turnResult.NextStep.(type) {
		case NextStepFinalOutput:
			streamedResult.FinalOutput = nextStep.Output
			return
		case NextStepHandoff:
			currentAgent = nextStep.NewAgent
		case NextStepRunAgain:
		}
	}
}

func (r Runner) runSingleTurnStreamed(ctx context.Context, agent *Agent, originalInput string, generatedItems []RunItem, streamedResult *RunResultStreaming) (*SingleStepResult, error) {
	res, err := r.runSingleTurn(ctx, agent, originalInput, generatedItems)
	if err != nil {
		return nil, err
	}
	for _, item := range res.NewStepItems {
		streamedResult.Events <- StreamEvent{Type: "run_item_stream_event", Item: item}
	}
	return res, nil
}
