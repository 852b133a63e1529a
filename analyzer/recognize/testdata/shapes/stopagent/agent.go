// Package stopagent ends its loop on per-step stop conditions (a list of predicates the caller
// may leave empty: then only the model's final answer ends it) and breaks out to a successful
// return.
package stopagent

import (
	"context"

	"example.com/shapes/llm"
)

// Step is one step's result.
type Step struct{ Content string }

// StopCondition decides after a step whether the run ends.
type StopCondition func(steps []Step) bool

// Call is one run's parameters.
type Call struct {
	Prompt   string
	StopWhen []StopCondition
}

// Agent runs the loop.
type Agent struct {
	c     *llm.Client
	tools map[string]func(string) string
}

func shouldStop(conds []StopCondition, steps []Step) bool {
	for _, c := range conds {
		if c(steps) {
			return true
		}
	}
	return false
}

// Generate runs the agent.
func (a *Agent) Generate(ctx context.Context, call Call) ([]Step, error) {
	msgs := []llm.Message{{Role: "user", Content: call.Prompt}}
	var steps []Step
	for {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return nil, err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
		steps = append(steps, Step{Content: m.Content})
		stop := shouldStop(call.StopWhen, steps)
		if stop || len(m.ToolCalls) == 0 {
			break
		}
	}
	n := 0
	for _, s := range steps {
		n += len(s.Content)
	}
	_ = n
	return steps, nil
}
