package a

import (
	"context"
	"errors"

	"fw"
)

// droppedThenNextStep drops a tool's error (toolerror's finding) and goes on to the next
// step: the success return comes after a later model step that succeeded, so the run's
// completion is legitimate (L5 asks that the last step succeeded).
func droppedThenNextStep(ctx context.Context, m fw.Model, tools []fw.Tool, msgs []fw.Message) (string, error) {
	for i := 0; i < 10; i++ {
		msg, err := m.Generate(ctx, msgs)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, *msg)
		if len(msg.ToolCalls) == 0 {
			return msg.Text, nil
		}
		for _, tc := range msg.ToolCalls {
			out := ""
			for _, t := range tools {
				if t.Name() == tc.Name {
					res, err := t.Call(ctx, tc.Args)
					if err != nil {
						continue
					}
					out = res
				}
			}
			msgs = append(msgs, fw.Message{Text: out})
		}
	}
	return "", errors.New("step limit")
}

// droppedThenLeave drops the tool's error the same way but leaves the loop right after the
// tools: no later step decides, the run ends completed on the failed step.
func droppedThenLeave(ctx context.Context, m fw.Model, tools []fw.Tool, msgs []fw.Message) (string, error) {
	last := ""
	for i := 0; i < 10; i++ {
		msg, err := m.Generate(ctx, msgs)
		if err != nil {
			return "", err
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Text, nil
		}
		failed := false
		for _, tc := range msg.ToolCalls {
			res, err := tools[0].Call(ctx, tc.Args)
			if err != nil {
				failed = true
				break
			}
			last = res
		}
		if failed {
			break
		}
	}
	return last, nil // want `run returns success on a path where the error of tool call tools\[0\].Call \(line 54\) was only used to leave the loop`
}
