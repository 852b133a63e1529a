// Package llm stands for a provider SDK client in the style of openai-go: services hanging
// off a Client, each New sending one HTTP request and decoding the answer.
package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// RequestOption changes one request.
type RequestOption func(*http.Request)

// Client is the API client.
type Client struct {
	Responses ResponseService
	Chat      ChatService
}

// NewClient returns a client for the API at base.
func NewClient(base, key string) Client {
	hc := &http.Client{}
	return Client{Responses: ResponseService{base: base, key: key, hc: hc}, Chat: ChatService{Completions: ChatCompletionService{base: base, key: key, hc: hc}}}
}

// InputItem is one item of a responses request.
type InputItem struct {
	Type      string `json:"type"`
	Role      string `json:"role,omitempty"`
	Content   string `json:"content,omitempty"`
	CallID    string `json:"call_id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	Output    string `json:"output,omitempty"`
}

// ToolParam describes a function to the model.
type ToolParam struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Parameters  map[string]any `json:"parameters"`
}

// ResponseNewParams is a responses request.
type ResponseNewParams struct {
	Model        string      `json:"model"`
	Instructions string      `json:"instructions,omitempty"`
	Input        []InputItem `json:"input"`
	Tools        []ToolParam `json:"tools,omitempty"`
	PrevID       string      `json:"previous_response_id,omitempty"`
}

// OutputItem is one output item: a message, a function call or a reasoning item, by Type.
type OutputItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Text      string `json:"text"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	CallID    string `json:"call_id"`
}

// Usage counts tokens.
type Usage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Response is a responses answer.
type Response struct {
	ID     string       `json:"id"`
	Output []OutputItem `json:"output"`
	Usage  Usage        `json:"usage"`
}

// ResponseService is the responses API.
type ResponseService struct {
	base, key string
	hc        *http.Client
}

// New creates a response.
func (s ResponseService) New(ctx context.Context, params ResponseNewParams, opts ...RequestOption) (*Response, error) {
	var out Response
	if err := post(ctx, s.hc, s.base+"/responses", s.key, params, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

// ChatService groups the chat APIs.
type ChatService struct{ Completions ChatCompletionService }

// ChatMessage is one chat message.
type ChatMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
	ToolCalls  []ChatToolCall `json:"tool_calls,omitempty"`
}

// ChatToolCall is a tool call of a chat message.
type ChatToolCall struct {
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// ChatCompletionNewParams is a chat completions request.
type ChatCompletionNewParams struct {
	Model    string        `json:"model"`
	Messages []ChatMessage `json:"messages"`
	Tools    []ToolParam   `json:"tools,omitempty"`
}

// ChatCompletion is a chat completions answer.
type ChatCompletion struct {
	ID      string `json:"id"`
	Choices []struct {
		Message      ChatMessage `json:"message"`
		FinishReason string      `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// ChatCompletionService is the chat completions API.
type ChatCompletionService struct {
	base, key string
	hc        *http.Client
}

// New creates a chat completion.
func (s ChatCompletionService) New(ctx context.Context, params ChatCompletionNewParams, opts ...RequestOption) (*ChatCompletion, error) {
	var out ChatCompletion
	if err := post(ctx, s.hc, s.base+"/chat/completions", s.key, params, &out, opts); err != nil {
		return nil, err
	}
	return &out, nil
}

func post(ctx context.Context, hc *http.Client, url, key string, body, out any, opts []RequestOption) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(string(b)))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+key)
	for _, o := range opts {
		o(req)
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("llm: %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
