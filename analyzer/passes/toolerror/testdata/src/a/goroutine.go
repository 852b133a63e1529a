package a

import (
	"context"
	"sync"

	"fw"
)

// parallelDropped runs each tool call in a goroutine of the turn loop; a failed call returns
// from its goroutine without recording the error: the model never learns it failed.
func parallelDropped(ctx context.Context, m fw.Model, tools map[string]fw.Tool, msgs []fw.Message) (string, error) {
	for i := 0; i < 10; i++ {
		msg, err := m.Generate(ctx, msgs)
		if err != nil {
			return "", err
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Text, nil
		}
		outs := make([]string, len(msg.ToolCalls))
		var wg sync.WaitGroup
		for j, tc := range msg.ToolCalls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := tools[tc.Name].Call(ctx, tc.Args) // want `error of tool call tools\[tc.Name\].Call is dropped on a path where it is not nil`
				if err != nil {
					return
				}
				outs[j] = out
			}()
		}
		wg.Wait()
		for _, o := range outs {
			msgs = append(msgs, fw.Message{Text: o})
		}
	}
	return "", nil
}

// parallelRecorded records the failure as the call's result: nothing to report.
func parallelRecorded(ctx context.Context, m fw.Model, tools map[string]fw.Tool, msgs []fw.Message) (string, error) {
	for i := 0; i < 10; i++ {
		msg, err := m.Generate(ctx, msgs)
		if err != nil {
			return "", err
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Text, nil
		}
		outs := make([]string, len(msg.ToolCalls))
		var wg sync.WaitGroup
		for j, tc := range msg.ToolCalls {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out, err := tools[tc.Name].Call(ctx, tc.Args)
				if err != nil {
					outs[j] = "error: " + err.Error()
					return
				}
				outs[j] = out
			}()
		}
		wg.Wait()
		for _, o := range outs {
			msgs = append(msgs, fw.Message{Text: o})
		}
	}
	return "", nil
}
