package planner

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
)

// Call is a tool call written in a reply's text.
type Call struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// ParseToolCalls reads the ```call blocks of a reply.
func ParseToolCalls(reply string) []Call {
	var out []Call
	for _, block := range strings.Split(reply, "```call")[1:] {
		body, _, _ := strings.Cut(block, "```")
		var c Call
		if json.Unmarshal([]byte(body), &c) == nil {
			out = append(out, c)
		}
	}
	return out
}

// Coder asks a text-only model and runs the tool calls it writes out.
type Coder struct {
	M     Model
	Tools map[string]func(ctx context.Context, input json.RawMessage) (string, error)
}

// Solve works on the task until the model writes no tool call.
func (c *Coder) Solve(ctx context.Context, task Task) (string, error) {
	prompt := task.Goal
	for turn := 0; turn < 12; turn++ {
		reply, err := c.M.Complete(ctx, prompt)
		if err != nil {
			return "", err
		}
		calls := ParseToolCalls(reply)
		if len(calls) == 0 {
			return reply, nil
		}
		for _, call := range calls {
			run, ok := c.Tools[call.Tool]
			if !ok {
				prompt += "\nno tool " + call.Tool
				continue
			}
			out, err := run(ctx, call.Input)
			if err != nil {
				out = err.Error()
			}
			prompt += "\n" + out
		}
	}
	return "", errors.New("coder: out of turns")
}
