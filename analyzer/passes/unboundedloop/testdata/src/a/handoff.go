package a

import (
	"context"

	"fw"
)

// handoffAgent is one agent of a hand-off graph: its tools may pass the conversation on.
type handoffAgent struct {
	tools map[string]func(args string) (string, *handoffAgent)
}

// stepResult is what one step added: the new messages and the agent now active.
type stepResult struct {
	Messages []fw.Message
	Agent    *handoffAgent
}

// handoffStep asks the model once and runs the tools it asks for; the messages come back in a
// field of its result.
func handoffStep(ctx context.Context, m fw.Model, active *handoffAgent, history []fw.Message) (*stepResult, error) {
	msg, err := m.Generate(ctx, history)
	if err != nil {
		return nil, err
	}
	res := &stepResult{Messages: []fw.Message{*msg}, Agent: active}
	if len(msg.ToolCalls) == 0 {
		res.Agent = nil
		return res, nil
	}
	for _, tc := range msg.ToolCalls {
		if fn, ok := active.tools[tc.Name]; ok {
			out, next := fn(tc.Args)
			res.Messages = append(res.Messages, fw.Message{Text: out})
			if next != nil {
				res.Agent = next
			}
		}
	}
	return res, nil
}

// runHandoff is bounded by how much the history grew: maxTurns messages at most.
func runHandoff(ctx context.Context, m fw.Model, agent *handoffAgent, messages []fw.Message, maxTurns int) ([]fw.Message, error) {
	active := agent
	initLen := len(messages)
	history := make([]fw.Message, len(messages))
	copy(history, messages)
	for len(history)-initLen < maxTurns && active != nil {
		res, err := handoffStep(ctx, m, active, history)
		if err != nil {
			return nil, err
		}
		history = append(history, res.Messages...)
		active = res.Agent
	}
	return history[initLen:], nil
}

// streamHandoff runs the same loop in a goroutine and streams the messages.
func streamHandoff(ctx context.Context, m fw.Model, agent *handoffAgent, messages []fw.Message, maxTurns int) <-chan fw.Message {
	out := make(chan fw.Message)
	go func() {
		defer close(out)
		active := agent
		initLen := len(messages)
		history := append([]fw.Message(nil), messages...)
		for len(history)-initLen < maxTurns && active != nil {
			res, err := handoffStep(ctx, m, active, history)
			if err != nil {
				return
			}
			for _, msg := range res.Messages {
				out <- msg
			}
			history = append(history, res.Messages...)
			active = res.Agent
		}
	}()
	return out
}

// runHandoffForever has no limit on the history.
func runHandoffForever(ctx context.Context, m fw.Model, agent *handoffAgent, history []fw.Message) []fw.Message {
	active := agent
	for active != nil { // want `turn loop around fw.Model.Generate has no bound`
		res, err := handoffStep(ctx, m, active, history)
		if err != nil {
			return history
		}
		history = append(history, res.Messages...)
		active = res.Agent
	}
	return history
}
