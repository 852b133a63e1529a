// Package llm is a provider client shaped like the Go SDKs of model APIs: a concrete client
// whose Chat method returns choices carrying tool calls, a channel stream and an iterator.
package llm

import (
	"context"
	"iter"
)

// Client talks to a model API.
type Client struct{ Key string }

// Message is one chat message.
type Message struct {
	Role       string
	Content    string
	ToolCalls  []ToolCall
	ToolCallID string
}

// ToolCall is a function call the model asks for.
type ToolCall struct {
	ID       string
	Function Function
}

// Function names the tool and carries its arguments.
type Function struct {
	Name      string
	Arguments string
}

// Choice is one completion.
type Choice struct {
	Message      Message
	FinishReason string
}

// Response is a chat completion.
type Response struct{ Choices []Choice }

// Request is a chat request.
type Request struct {
	Model    string
	Messages []Message
}

// Chat sends a request.
func (c *Client) Chat(ctx context.Context, req Request) (*Response, error) {
	return &Response{}, nil
}

// Chunk is a streamed delta.
type Chunk struct {
	Delta     string
	ToolCalls []ToolCall
	Err       error
}

// Stream streams a completion over a channel.
func (c *Client) Stream(ctx context.Context, req Request) <-chan Chunk {
	ch := make(chan Chunk)
	close(ch)
	return ch
}

// Seq streams a completion as an iterator.
func (c *Client) Seq(ctx context.Context, req Request) iter.Seq2[*Response, error] {
	return func(yield func(*Response, error) bool) {}
}
