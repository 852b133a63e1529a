package a

import (
	"context"

	"fw"
)

// counterLimit: a condition-less loop bounded by a counter compared for equality with a local
// limit, the last statement of the body a continue; at the limit a last request answers.
func counterLimit(ctx context.Context, m fw.Model) (string, error) {
	limit := 14
	counter := 0
	for {
		msg, err := m.Generate(ctx, nil)
		if err != nil {
			return "", err
		}
		if len(msg.ToolCalls) == 0 {
			return "done", nil
		}
		if counter == limit {
			last, err := m.Generate(ctx, nil)
			if err != nil {
				return "", err
			}
			return last.Text, nil
		}
		for _, tc := range msg.ToolCalls {
			fw.Complete(ctx, tc.Name)
		}
		counter++
		continue
	}
}

// counterNever: the counter is compared but never incremented: no bound.
func counterNever(ctx context.Context, m fw.Model) (string, error) {
	limit := 14
	counter := 0
	for { // want `turn loop around fw.Model.Generate has no bound and no cancellation exit`
		msg, err := m.Generate(ctx, nil)
		if err != nil {
			return "", err
		}
		if len(msg.ToolCalls) == 0 {
			return "done", nil
		}
		if counter == limit {
			return "", nil
		}
		continue
	}
}

// counterFirst: an equality with the counter's start value picks the first iteration: no
// bound.
func counterFirst(ctx context.Context, m fw.Model) error {
	turn := 0
	for { // want `turn loop around fw.Model.Generate has no bound and no cancellation exit`
		msg, err := m.Generate(ctx, nil)
		if turn == 0 {
			return err
		}
		if len(msg.ToolCalls) == 0 {
			return nil
		}
		turn++
	}
}
