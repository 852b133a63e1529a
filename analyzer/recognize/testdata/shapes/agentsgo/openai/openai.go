// Package openai stands for an openai-go style client: a responses service and a chat
// completions service, each with a New method that sends one request.
package openai

import "context"

// Client is the API client.
type Client struct {
	Responses ResponseService
	Chat      ChatService
}

// NewClient returns a client.
func NewClient() Client { return Client{} }

// ResponseNewParams is a responses request.
type ResponseNewParams struct {
	Model string
	Input []ResponseInputItem
	Tools []ToolParam
}

// ResponseInputItem is one input item.
type ResponseInputItem struct {
	Type      string
	Role      string
	Content   string
	CallID    string
	Output    string
	Name      string
	Arguments string
}

// ToolParam describes a tool to the model.
type ToolParam struct{ Name, Description string }

// ResponseOutputItemUnion is one output item of a response: a message, a function call, a
// reasoning item, told apart by Type.
type ResponseOutputItemUnion struct {
	Type      string
	ID        string
	Content   string
	Name      string
	Arguments string
	CallID    string
}

// ResponseFunctionToolCall is a function call item.
type ResponseFunctionToolCall struct{ Name, Arguments, CallID string }

// ResponseOutputMessage is a message item.
type ResponseOutputMessage struct{ Content string }

// AsAny returns the variant the item holds.
func (u ResponseOutputItemUnion) AsAny() any {
	switch u.Type {
	case "function_call":
		return ResponseFunctionToolCall{Name: u.Name, Arguments: u.Arguments, CallID: u.CallID}
	case "message":
		return ResponseOutputMessage{Content: u.Content}
	}
	return nil
}

// Response is a model response.
type Response struct {
	ID     string
	Output []ResponseOutputItemUnion
}

// ResponseService is the responses API.
type ResponseService struct{ key string }

// New sends a responses request.
func (r *ResponseService) New(ctx context.Context, body ResponseNewParams) (*Response, error) {
	return &Response{}, nil
}

// ChatService groups the chat APIs.
type ChatService struct{ Completions ChatCompletionService }

// ChatCompletionNewParams is a chat completions request.
type ChatCompletionNewParams struct {
	Model    string
	Messages []ChatCompletionMessage
}

// ChatCompletionMessage is a chat message.
type ChatCompletionMessage struct {
	Role      string
	Content   string
	ToolCalls []ChatCompletionMessageToolCall
}

// ChatCompletionMessageToolCall is a tool call of a chat message.
type ChatCompletionMessageToolCall struct {
	ID       string
	Function struct{ Name, Arguments string }
}

// ChatCompletion is a chat completions response.
type ChatCompletion struct {
	ID      string
	Choices []struct{ Message ChatCompletionMessage }
}

// ChatCompletionService is the chat completions API.
type ChatCompletionService struct{ key string }

// New sends a chat completions request.
func (c *ChatCompletionService) New(ctx context.Context, body ChatCompletionNewParams) (*ChatCompletion, error) {
	return &ChatCompletion{}, nil
}
