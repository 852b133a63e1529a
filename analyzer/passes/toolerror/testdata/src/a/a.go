package a

import (
	"context"

	"fw"
)

func ignored(ctx context.Context, t fw.Tool) {
	t.Call(ctx, "x") // want `error of tool call t.Call is discarded: the model never learns the tool failed`
}

func blank(ctx context.Context) string {
	out, _ := fw.RunTool(ctx, "x") // want `error of tool call fw.RunTool is assigned to _`
	return out
}

func unchecked(ctx context.Context, t fw.Tool, verbose bool) (string, error) {
	out, err := t.Call(ctx, "x") // want `error of tool call t.Call is not checked on every path`
	if verbose {
		return out, err
	}
	return out, nil
}

func checked(ctx context.Context, t fw.Tool) string {
	out, err := t.Call(ctx, "x")
	if err != nil {
		return "error: " + err.Error()
	}
	return out
}

func notATool(ctx context.Context, m fw.Model) {
	m.Generate(ctx, nil)
}

func suppressed(ctx context.Context, t fw.Tool) {
	t.Call(ctx, "warmup") //lifeline:ignore toolerror warm-up call, failure is harmless
}
