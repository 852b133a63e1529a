// Package boundwrite is a chat bridge shaped like github.com/yomorun/yomo@v1.20.6
// pkg/bridge/ai/chat.go:79-194 (multiTurnFunctionCalling, endCall): a condition-less loop asks
// the model, and when its counter reaches a local limit hands the last reply to a helper that
// writes it to the client and returns nil unless the writing fails (if chatCtx.callTimes ==
// maxCalls { return endCall(…) }); otherwise it runs the tools the reply asks for by name.
package boundwrite

import (
	"context"
	"io"
)

// Msg carries tool calls.
type Msg struct {
	Text      string
	ToolCalls []Call
}

// Call is a tool call.
type Call struct{ Name, Args string }

// Model is a model.
type Model interface {
	Generate(ctx context.Context, msgs []Msg) (*Msg, error)
}

// Tool runs one tool.
type Tool func(ctx context.Context, args string) (string, error)

// Bridge answers chat requests.
type Bridge struct {
	model Model
	tools map[string]Tool
}

// Chat answers msgs on w.
func (b *Bridge) Chat(ctx context.Context, msgs []Msg, w io.Writer) error { // want Chat:`lifecycle\(model loops=1 runs\)`
	maxCalls, callTimes := 14, 0
	for {
		resp, err := b.model.Generate(ctx, msgs)
		if err != nil {
			return err
		}
		if callTimes == maxCalls {
			return endCall(resp, w)
		}
		if len(resp.ToolCalls) == 0 {
			return endCall(resp, w)
		}
		msgs = append(msgs, *resp)
		for _, tc := range resp.ToolCalls {
			tool, ok := b.tools[tc.Name]
			if !ok {
				continue
			}
			out, err := tool(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, Msg{Text: out})
		}
		callTimes++
	}
}

func endCall(resp *Msg, w io.Writer) error {
	if resp == nil {
		return nil
	}
	if _, err := io.WriteString(w, resp.Text); err != nil {
		return err
	}
	return nil
}
