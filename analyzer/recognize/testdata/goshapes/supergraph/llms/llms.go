// Package llms is the model interface the supergraph agent calls (reduced from
// github.com/tmc/langchaingo/llms, which smallnest/langgraphgo@v0.5.0 imports).
package llms

import "context"

// ChatMessageType is a message's role.
type ChatMessageType string

const (
	ChatMessageTypeAI    ChatMessageType = "ai"
	ChatMessageTypeHuman ChatMessageType = "human"
	ChatMessageTypeTool  ChatMessageType = "tool"
)

// ContentPart is a part of a message.
type ContentPart interface{ isPart() }

// TextContent is a text part.
type TextContent struct{ Text string }

func (TextContent) isPart() {}

// TextPart returns a text part.
func TextPart(s string) TextContent { return TextContent{Text: s} }

// FunctionCall is the function a tool call names.
type FunctionCall struct {
	Name      string
	Arguments string
}

// ToolCall is a tool call of the model's reply.
type ToolCall struct {
	ID           string
	FunctionCall *FunctionCall
}

func (ToolCall) isPart() {}

// ToolCallResponse is a tool's result.
type ToolCallResponse struct {
	ToolCallID string
	Name       string
	Content    string
}

func (ToolCallResponse) isPart() {}

// MessageContent is one message.
type MessageContent struct {
	Role  ChatMessageType
	Parts []ContentPart
}

// FunctionDefinition describes a tool to the model.
type FunctionDefinition struct {
	Name        string
	Description string
	Parameters  any
}

// Tool is a tool offered to the model.
type Tool struct {
	Type     string
	Function *FunctionDefinition
}

// ContentChoice is one choice of the reply.
type ContentChoice struct {
	Content   string
	ToolCalls []ToolCall
}

// ContentResponse is the model's reply.
type ContentResponse struct{ Choices []*ContentChoice }

// CallOptions are a call's options.
type CallOptions struct{ Tools []Tool }

// CallOption sets a call option.
type CallOption func(*CallOptions)

// WithTools offers tools to the model.
func WithTools(tools []Tool) CallOption { return func(o *CallOptions) { o.Tools = tools } }

// Model is a chat model.
type Model interface {
	GenerateContent(ctx context.Context, messages []MessageContent, options ...CallOption) (*ContentResponse, error)
}
