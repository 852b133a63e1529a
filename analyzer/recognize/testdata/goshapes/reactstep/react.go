// Package reactstep is a ReAct loop whose reply is parsed into one step struct, shaped like
// github.com/PratikDhanave/multi-agent-reference-architecture-go package reasoning (func ReAct
// and parseReActStep, as served by the code search, no tag): the loop asks a provider
// interface for a completion, a plain parser reads the "Thought:", "Action:" and
// "Action Input:" lines of its text into a struct, an action of "finish" (or none) returns the
// action input as the answer, otherwise the tool whose Name equals the action is found by a
// range over the tool slice and run through its Run func field, and the observation is appended
// to the history; the bound is a parameter (<= 0 -> 5) and reaching it returns an error.
package reactstep

import (
	"context"
	"errors"
	"strings"
)

// Message is a chat message.
type Message struct{ Role, Content string }

// CompletionRequest is a request.
type CompletionRequest struct {
	Model       string
	Messages    []Message
	MaxTokens   int
	Temperature float64
}

// CompletionResponse is a reply.
type CompletionResponse struct{ Text string }

// Provider is a model provider.
type Provider interface {
	Complete(ctx context.Context, req CompletionRequest) (CompletionResponse, error)
}

// Tool is one action available to the agent.
type Tool struct {
	Name        string
	Description string
	Run         func(ctx context.Context, input string) (string, error)
}

// Step is one Thought / Action / Observation.
type Step struct {
	Thought, Action, ActionInput, Observation string
}

// Result is a run's outcome.
type Result struct {
	Steps  []Step
	Answer string
}

// ReAct runs the loop until the model says finish or maxSteps is reached.
func ReAct(ctx context.Context, p Provider, model, system, user string, tools []Tool, maxSteps int) (Result, error) {
	if maxSteps <= 0 {
		maxSteps = 5
	}
	history := []Message{{Role: "system", Content: system}, {Role: "user", Content: user}}
	var res Result
	for i := 0; i < maxSteps; i++ {
		resp, err := p.Complete(ctx, CompletionRequest{Model: model, Messages: history, MaxTokens: 256, Temperature: 0.2})
		if err != nil {
			return res, err
		}
		step := parseStep(resp.Text)
		history = append(history, Message{Role: "assistant", Content: resp.Text})
		if step.Action == "finish" || step.Action == "" {
			res.Steps = append(res.Steps, step)
			res.Answer = step.ActionInput
			return res, nil
		}
		var obs string
		var found bool
		for _, t := range tools {
			if t.Name == step.Action {
				found = true
				out, err := t.Run(ctx, step.ActionInput)
				if err != nil {
					obs = "error: " + err.Error()
				} else {
					obs = out
				}
				break
			}
		}
		if !found {
			obs = "unknown tool: " + step.Action
		}
		step.Observation = obs
		res.Steps = append(res.Steps, step)
		history = append(history, Message{Role: "user", Content: "Observation: " + obs})
	}
	return res, errors.New("react: max steps reached without final answer")
}

func parseStep(text string) Step {
	var s Step
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "Thought:"):
			s.Thought = strings.TrimSpace(strings.TrimPrefix(line, "Thought:"))
		case strings.HasPrefix(line, "Action:"):
			s.Action = strings.TrimSpace(strings.TrimPrefix(line, "Action:"))
		case strings.HasPrefix(line, "Action Input:"):
			s.ActionInput = strings.TrimSpace(strings.TrimPrefix(line, "Action Input:"))
		}
	}
	return s
}
