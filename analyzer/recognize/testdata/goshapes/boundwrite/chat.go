// Package boundwrite is an OpenAI-compatible chat bridge shaped like
// github.com/yomorun/yomo@v1.20.6 pkg/bridge/ai/chat.go:79-194 (multiTurnFunctionCalling,
// endCall): a condition-less loop asks the model, and when its counter reaches a local limit
// hands the last reply to a helper that writes it to the client and returns nil unless the
// writing fails (if chatCtx.callTimes == maxCalls { return endCall(…) }); otherwise it runs
// the tools the reply asks for by name, appends their results and counts the call.
package boundwrite

import (
	"context"
	"io"

	openai "example.com/goshapes/goopenai"
)

// Tool runs one tool.
type Tool func(ctx context.Context, args string) (string, error)

type chatContext struct {
	req       openai.ChatCompletionRequest
	callTimes int
}

// Bridge answers chat requests.
type Bridge struct {
	client *openai.Client
	tools  map[string]Tool
}

// Chat answers req on w.
func (b *Bridge) Chat(ctx context.Context, req openai.ChatCompletionRequest, w io.Writer) error {
	var (
		maxCalls = 14
		chatCtx  = &chatContext{req: req}
	)
	for {
		resp, err := b.client.CreateChatCompletion(ctx, chatCtx.req)
		if err != nil {
			return err
		}
		if chatCtx.callTimes == maxCalls {
			return endCall(chatCtx, resp, w)
		}
		msg := resp.Choices[0].Message
		if len(msg.ToolCalls) == 0 {
			return endCall(chatCtx, resp, w)
		}
		chatCtx.req.Messages = append(chatCtx.req.Messages, msg)
		for _, tc := range msg.ToolCalls {
			tool, ok := b.tools[tc.Function.Name]
			if !ok {
				continue
			}
			out, err := tool(ctx, tc.Function.Arguments)
			if err != nil {
				out = err.Error()
			}
			chatCtx.req.Messages = append(chatCtx.req.Messages, openai.ChatCompletionMessage{
				Role: openai.ChatMessageRoleTool, ToolCallID: tc.ID, Content: out,
			})
		}
		chatCtx.callTimes++
	}
}

func endCall(chatCtx *chatContext, resp openai.ChatCompletionResponse, w io.Writer) error {
	if len(resp.Choices) == 0 {
		return nil
	}
	if _, err := io.WriteString(w, resp.Choices[0].Message.Content); err != nil {
		return err
	}
	return nil
}
