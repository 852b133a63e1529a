// Package api is a model server's Go client shaped like ollama's (github.com/ollama/ollama@v0.17.4
// api/client.go:150-300): Chat takes the request and a callback, streams the reply as JSON lines
// and hands each decoded ChatResponse to the callback; it returns only an error.
package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
)

// ToolCall is a call the model asked for.
type ToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string         `json:"name"`
		Arguments map[string]any `json:"arguments"`
	} `json:"function"`
}

// Message is one chat message.
type Message struct {
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
}

// ChatRequest is a chat request.
type ChatRequest struct {
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
}

// ChatResponse is one streamed part of the reply.
type ChatResponse struct {
	Message Message `json:"message"`
	Done    bool    `json:"done"`
}

// StatusError is a non-2xx reply.
type StatusError struct {
	StatusCode   int
	ErrorMessage string
}

func (e StatusError) Error() string { return e.ErrorMessage }

// ChatResponseFunc receives each part of the reply.
type ChatResponseFunc func(ChatResponse) error

// Client talks to the server.
type Client struct {
	base string
	http *http.Client
}

// NewClient makes a client.
func NewClient(base string) *Client { return &Client{base: base, http: http.DefaultClient} }

func (c *Client) stream(ctx context.Context, method, path string, data any, fn func([]byte) error) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		return StatusError{StatusCode: resp.StatusCode, ErrorMessage: resp.Status}
	}
	scanner := bufio.NewScanner(resp.Body)
	for scanner.Scan() {
		if err := fn(scanner.Bytes()); err != nil {
			return err
		}
	}
	return scanner.Err()
}

// Chat streams the reply to req into fn.
func (c *Client) Chat(ctx context.Context, req *ChatRequest, fn ChatResponseFunc) error {
	return c.stream(ctx, http.MethodPost, "/api/chat", req, func(bts []byte) error {
		var resp ChatResponse
		if err := json.Unmarshal(bts, &resp); err != nil {
			return err
		}
		return fn(resp)
	})
}
