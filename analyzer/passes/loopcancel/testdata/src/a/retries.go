package a

import (
	"context"

	"fw"
)

// generateRetry retries one model call three times without waiting between attempts: a
// cancelled context fails each attempt at once, so the loop ends after three quick failures;
// no turn loop, nothing to report.
func generateRetry(ctx context.Context, m fw.Model, msgs []fw.Message) (*fw.Message, error) {
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		out, err := m.Generate(ctx, msgs)
		if err == nil {
			return out, nil
		}
		last = err
	}
	return nil, last
}

// turnsWithRetry is the turn loop around the retrying helper: it checks cancellation.
func turnsWithRetry(ctx context.Context, m fw.Model, tools map[string]fw.Tool, msgs []fw.Message) (string, error) {
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		msg, err := generateRetry(ctx, m, msgs)
		if err != nil {
			return "", err
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Text, nil
		}
		for _, tc := range msg.ToolCalls {
			out, err := tools[tc.Name].Call(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, fw.Message{Text: out})
		}
	}
	return "", nil
}

// retryInline retries the model call inside the turn loop, without waiting: only the turn
// loop around it is one, and it checks cancellation.
func retryInline(ctx context.Context, m fw.Model, tools map[string]fw.Tool, msgs []fw.Message) (string, error) {
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		var msg *fw.Message
		var err error
		for attempt := 0; attempt < 3; attempt++ {
			msg, err = m.Generate(ctx, msgs)
			if err == nil {
				break
			}
		}
		if err != nil {
			return "", err
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Text, nil
		}
		for _, tc := range msg.ToolCalls {
			out, err := tools[tc.Name].Call(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, fw.Message{Text: out})
		}
	}
	return "", nil
}

// retryForever retries without a bound and without waiting: a cancelled run spins on failed
// attempts forever.
func retryForever(ctx context.Context, m fw.Model, msgs []fw.Message) *fw.Message {
	for { // want `retry loop never checks cancellation between attempts`
		out, err := m.Generate(ctx, msgs)
		if err == nil {
			return out
		}
	}
}
