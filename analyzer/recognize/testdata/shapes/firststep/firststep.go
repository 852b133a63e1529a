// Package firststep drives the engine's state machine (shape of issue 10, gptscript's Runner):
// Chat validates its input, makes the first decision through a helper that reaches the model
// call two calls deep in another package (start -> Engine.Start -> complete), then loops in
// resume until the answer. A failure of the first decision ends a run that has started: it
// failed, it is not a run that never started.
package firststep

import (
	"context"
	"errors"

	"example.com/shapes/firststep/engine"
)

// Runner runs chats.
type Runner struct {
	e     *engine.Engine
	tools map[string]func(string) string
}

func (r *Runner) start(ctx context.Context, input string) (*engine.Return, error) {
	ret, err := r.e.Start(ctx, input)
	if err != nil {
		return nil, err
	}
	return ret, nil
}

func (r *Runner) resume(ctx context.Context, ret *engine.Return) (string, error) {
	for {
		if len(ret.Calls) == 0 {
			return *ret.Result, nil
		}
		var results []engine.CallResult
		for _, tc := range ret.Calls {
			t, ok := r.tools[tc.Function.Name]
			if !ok {
				return "", errors.New("unknown tool " + tc.Function.Name)
			}
			results = append(results, engine.CallResult{ID: tc.ID, Output: t(tc.Function.Arguments)})
		}
		next, err := r.e.Continue(ctx, ret.State, results...)
		if err != nil {
			return "", err
		}
		ret = next
	}
}

// Chat answers one input.
func (r *Runner) Chat(ctx context.Context, input string) (string, error) {
	if r.e == nil {
		return "", errors.New("no engine")
	}
	ret, err := r.start(ctx, input)
	if err != nil {
		return "", err
	}
	out, err := r.resume(ctx, ret)
	if err != nil {
		return "", err
	}
	return out, nil
}
