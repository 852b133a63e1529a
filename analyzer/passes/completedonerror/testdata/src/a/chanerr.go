package a

import (
	"context"

	"fw"
)

// Reply is one model answer delivered over a channel, its failure carried in a field.
type Reply struct {
	Msg *fw.Message
	Err error
}

// StreamModel answers over a channel.
type StreamModel interface {
	Stream(ctx context.Context, msgs []fw.Message) <-chan Reply
}

// chanUnchecked never looks at the reply's error: a failed model call (a nil message, or an
// empty one) ends the run as completed.
func chanUnchecked(ctx context.Context, m StreamModel, tools map[string]fw.Tool, msgs []fw.Message) (string, error) {
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		resp := <-m.Stream(ctx, msgs)
		msg := resp.Msg
		if msg == nil || len(msg.ToolCalls) == 0 {
			return "", nil // want `run returns success on a path where the error carried by the model call's reply resp.Err \(line 27\) is never checked`
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

// chanChecked returns the reply's error: nothing to report.
func chanChecked(ctx context.Context, m StreamModel, tools map[string]fw.Tool, msgs []fw.Message) (string, error) {
	for i := 0; i < 10; i++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		ch := m.Stream(ctx, msgs)
		resp := <-ch
		if resp.Err != nil {
			return "", resp.Err
		}
		if len(resp.Msg.ToolCalls) == 0 {
			return resp.Msg.Text, nil
		}
		for _, tc := range resp.Msg.ToolCalls {
			out, err := tools[tc.Name].Call(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, fw.Message{Text: out})
		}
	}
	return "", nil
}
