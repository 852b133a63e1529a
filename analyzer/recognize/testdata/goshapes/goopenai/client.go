// Package goopenai is a chat client shaped like sashabaranov/go-openai: a concrete *Client
// whose CreateChatCompletion takes a request struct and returns a response by value.
package goopenai

import "context"

// Client is an API client.
type Client struct{ token string }

// NewClient makes a client.
func NewClient(token string) *Client { return &Client{token: token} }

// ChatMessageRoleTool and friends are the message roles.
const (
	ChatMessageRoleSystem    = "system"
	ChatMessageRoleUser      = "user"
	ChatMessageRoleAssistant = "assistant"
	ChatMessageRoleTool      = "tool"
)

// FunctionCall is the function a tool call names.
type FunctionCall struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
}

// ToolCall is one tool call of a reply.
type ToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function FunctionCall `json:"function"`
}

// ChatCompletionMessage is one chat message.
type ChatCompletionMessage struct {
	Role       string     `json:"role"`
	Content    string     `json:"content,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// Tool describes a tool to the model.
type Tool struct {
	Type     string `json:"type"`
	Function any    `json:"function,omitempty"`
}

// ChatCompletionRequest is a request.
type ChatCompletionRequest struct {
	Model    string                  `json:"model"`
	Messages []ChatCompletionMessage `json:"messages"`
	Tools    []Tool                  `json:"tools,omitempty"`
}

// FinishReason says why a reply ended.
type FinishReason string

// ChatCompletionChoice is one choice.
type ChatCompletionChoice struct {
	Index        int                   `json:"index"`
	Message      ChatCompletionMessage `json:"message"`
	FinishReason FinishReason          `json:"finish_reason"`
}

// ChatCompletionResponse is a reply.
type ChatCompletionResponse struct {
	ID      string                 `json:"id"`
	Choices []ChatCompletionChoice `json:"choices"`
}

// CreateChatCompletion sends a chat request.
func (c *Client) CreateChatCompletion(ctx context.Context, request ChatCompletionRequest) (response ChatCompletionResponse, err error) {
	return ChatCompletionResponse{}, nil
}
