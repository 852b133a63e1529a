package agentrt

import (
	"context"

	"example.com/shapes/spanmodel/llm"
	"example.com/shapes/spanmodel/span"
)

// ModelRequest is one request to a model.
type ModelRequest struct {
	Instructions string
	Input        []llm.InputItem
	Tools        []Tool
	PrevID       string
}

// ModelResponse is what a model answered, in the responses API's items.
type ModelResponse struct {
	Output     []llm.OutputItem
	Usage      llm.Usage
	ResponseID string
}

// StreamEvent is one event of a streamed response.
type StreamEvent struct {
	Delta string
	Done  *ModelResponse
}

// Model is what the runner asks for the next decision.
type Model interface {
	GetResponse(ctx context.Context, req ModelRequest) (*ModelResponse, error)
	StreamResponse(ctx context.Context, req ModelRequest, yield func(StreamEvent) error) error
}

func toolParams(tools []Tool) []llm.ToolParam {
	var ps []llm.ToolParam
	for _, t := range tools {
		ps = append(ps, llm.ToolParam{Name: t.Name, Description: t.Description, Parameters: t.Schema})
	}
	return ps
}

// ResponsesModel is a Model over the responses API.
type ResponsesModel struct {
	Name   string
	client llm.Client
}

// GetResponse implements Model: one request, in a span of its own.
func (m *ResponsesModel) GetResponse(ctx context.Context, req ModelRequest) (*ModelResponse, error) {
	var resp *llm.Response
	err := span.WithSpan(ctx, "response", func(ctx context.Context) error {
		var err error
		resp, err = m.client.Responses.New(ctx, llm.ResponseNewParams{
			Model: m.Name, Instructions: req.Instructions, Input: req.Input, Tools: toolParams(req.Tools), PrevID: req.PrevID,
		})
		if err != nil {
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &ModelResponse{Output: resp.Output, Usage: resp.Usage, ResponseID: resp.ID}, nil
}

// StreamResponse implements Model by sending the whole answer as one event.
func (m *ResponsesModel) StreamResponse(ctx context.Context, req ModelRequest, yield func(StreamEvent) error) error {
	r, err := m.GetResponse(ctx, req)
	if err != nil {
		return err
	}
	return yield(StreamEvent{Done: r})
}

// ChatModel is a Model over the chat completions API.
type ChatModel struct {
	Name   string
	client llm.Client
}

// GetResponse implements Model, turning the chat answer into output items.
func (m *ChatModel) GetResponse(ctx context.Context, req ModelRequest) (*ModelResponse, error) {
	msgs := []llm.ChatMessage{{Role: "system", Content: req.Instructions}}
	for _, in := range req.Input {
		switch in.Type {
		case "function_call_output":
			msgs = append(msgs, llm.ChatMessage{Role: "tool", ToolCallID: in.CallID, Content: in.Output})
		default:
			msgs = append(msgs, llm.ChatMessage{Role: in.Role, Content: in.Content})
		}
	}
	var cc *llm.ChatCompletion
	err := span.WithSpan(ctx, "chat", func(ctx context.Context) (err error) {
		cc, err = m.client.Chat.Completions.New(ctx, llm.ChatCompletionNewParams{Model: m.Name, Messages: msgs, Tools: toolParams(req.Tools)})
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []llm.OutputItem
	for _, ch := range cc.Choices {
		if ch.Message.Content != "" {
			out = append(out, llm.OutputItem{Type: "message", Text: ch.Message.Content})
		}
		for _, tc := range ch.Message.ToolCalls {
			out = append(out, llm.OutputItem{Type: "function_call", CallID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
	}
	return &ModelResponse{Output: out, ResponseID: cc.ID,
		Usage: llm.Usage{InputTokens: cc.Usage.PromptTokens, OutputTokens: cc.Usage.CompletionTokens}}, nil
}

// StreamResponse implements Model by sending the whole answer as one event.
func (m *ChatModel) StreamResponse(ctx context.Context, req ModelRequest, yield func(StreamEvent) error) error {
	r, err := m.GetResponse(ctx, req)
	if err != nil {
		return err
	}
	return yield(StreamEvent{Done: r})
}

// NewModel returns the model called name on client: chat completions when chat is set.
func NewModel(client llm.Client, name string, chat bool) Model {
	if chat {
		return &ChatModel{Name: name, client: client}
	}
	return &ResponsesModel{Name: name, client: client}
}
