package a

import (
	"context"
	"errors"

	"fw"
)

// Result is what a run returns.
type Result struct{ Steps int }

// runTools runs the step's tools; a critical tool error is returned.
func runTools(ctx context.Context, tools map[string]fw.Tool, calls []fw.ToolCall) ([]fw.Message, error) {
	var out []fw.Message
	for _, tc := range calls {
		res, err := tools[tc.Name].Call(ctx, tc.Args)
		if err != nil {
			return out, err
		}
		out = append(out, fw.Message{Text: res})
	}
	return out, nil
}

// leaveOnToolError breaks out of the turn loop on a tool error and returns success.
func leaveOnToolError(ctx context.Context, m fw.Model, tools map[string]fw.Tool, msgs []fw.Message) (*Result, error) {
	steps := 0
	for steps < 20 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		msg, err := m.Generate(ctx, msgs)
		if err != nil {
			return nil, err
		}
		steps++
		if len(msg.ToolCalls) == 0 {
			break
		}
		results, err := runTools(ctx, tools, msg.ToolCalls)
		msgs = append(msgs, results...)
		if len(results) > 5 || err != nil {
			break
		}
	}
	return &Result{Steps: steps}, nil // want `run returns success on a path where the error of tool call runTools \(line 41\) was only used to leave the loop`
}

// failOnToolError returns an error after leaving on the tool error.
func failOnToolError(ctx context.Context, m fw.Model, tools map[string]fw.Tool, msgs []fw.Message) (*Result, error) {
	for i := 0; i < 20; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		msg, err := m.Generate(ctx, msgs)
		if err != nil {
			return nil, err
		}
		if len(msg.ToolCalls) == 0 {
			return &Result{}, nil
		}
		results, err := runTools(ctx, tools, msg.ToolCalls)
		if err != nil {
			break
		}
		msgs = append(msgs, results...)
	}
	return nil, errors.New("a tool failed or the step limit was reached")
}

// wrapOnToolError uses the error on its way out: handled.
func wrapOnToolError(ctx context.Context, m fw.Model, tools map[string]fw.Tool, msgs []fw.Message) (res *Result, err error) {
	for i := 0; i < 20; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		msg, gerr := m.Generate(ctx, msgs)
		if gerr != nil {
			return nil, gerr
		}
		if len(msg.ToolCalls) == 0 {
			return &Result{}, nil
		}
		results, terr := runTools(ctx, tools, msg.ToolCalls)
		if terr != nil {
			err = terr
			break
		}
		msgs = append(msgs, results...)
	}
	return nil, err
}
