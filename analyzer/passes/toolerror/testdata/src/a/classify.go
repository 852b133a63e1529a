package a

import (
	"context"
	"errors"

	"fw"
)

// ErrDenied is the one tool error the loop handles.
var ErrDenied = errors.New("permission denied")

// onlyDenied records every tool result as a success unless the error is ErrDenied.
func onlyDenied(ctx context.Context, tools []fw.Tool, args []string) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		res, err := t.Call(ctx, args[i]) // want `error of tool call t.Call is dropped on a path where it is not nil`
		if err != nil {
			if errors.Is(err, ErrDenied) {
				out[i] = "denied"
				break
			}
		}
		out[i] = res
	}
	return out
}

// reported gives every tool error back to the model.
func reported(ctx context.Context, tools []fw.Tool, args []string) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		res, err := t.Call(ctx, args[i])
		if err != nil {
			if errors.Is(err, ErrDenied) {
				out[i] = "denied"
				break
			}
			res = "error: " + err.Error()
		}
		out[i] = res
	}
	return out
}
