package agents

import (
	"context"

	"example.com/shapes/agentsgo/openai"
)

// ModelResponse is what a model answered.
type ModelResponse struct {
	Output     []openai.ResponseOutputItemUnion
	ResponseID string
}

// ModelParams is one model request.
type ModelParams struct {
	SystemInstructions string
	Input              []openai.ResponseInputItem
	Tools              []Tool
}

// Model is the interface a model implements.
type Model interface {
	GetResponse(ctx context.Context, params ModelParams) (*ModelResponse, error)
}

// ModelProvider looks a model up by name.
type ModelProvider interface {
	GetModel(name string) (Model, error)
}

// OpenAIResponsesModel is a Model over the responses API.
type OpenAIResponsesModel struct {
	Name   string
	client openai.Client
}

// GetResponse implements Model.
func (m OpenAIResponsesModel) GetResponse(ctx context.Context, params ModelParams) (*ModelResponse, error) {
	var tools []openai.ToolParam
	for _, t := range params.Tools {
		tools = append(tools, openai.ToolParam{Name: t.ToolName()})
	}
	resp, err := m.client.Responses.New(ctx, openai.ResponseNewParams{Model: m.Name, Input: params.Input, Tools: tools})
	if err != nil {
		return nil, err
	}
	return &ModelResponse{Output: resp.Output, ResponseID: resp.ID}, nil
}

// OpenAIChatCompletionsModel is a Model over the chat completions API.
type OpenAIChatCompletionsModel struct {
	Name   string
	client openai.Client
}

// GetResponse implements Model.
func (m OpenAIChatCompletionsModel) GetResponse(ctx context.Context, params ModelParams) (*ModelResponse, error) {
	msgs := []openai.ChatCompletionMessage{{Role: "system", Content: params.SystemInstructions}}
	for _, in := range params.Input {
		msgs = append(msgs, openai.ChatCompletionMessage{Role: in.Role, Content: in.Content})
	}
	cc, err := m.client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{Model: m.Name, Messages: msgs})
	if err != nil {
		return nil, err
	}
	var out []openai.ResponseOutputItemUnion
	for _, ch := range cc.Choices {
		if ch.Message.Content != "" {
			out = append(out, openai.ResponseOutputItemUnion{Type: "message", Content: ch.Message.Content})
		}
		for _, tc := range ch.Message.ToolCalls {
			out = append(out, openai.ResponseOutputItemUnion{Type: "function_call", Name: tc.Function.Name, Arguments: tc.Function.Arguments, CallID: tc.ID})
		}
	}
	return &ModelResponse{Output: out}, nil
}

// OpenAIProvider resolves model names to OpenAI models.
type OpenAIProvider struct {
	UseResponses bool
	client       openai.Client
}

// GetModel implements ModelProvider.
func (p *OpenAIProvider) GetModel(name string) (Model, error) {
	if p.UseResponses {
		return OpenAIResponsesModel{Name: name, client: p.client}, nil
	}
	return OpenAIChatCompletionsModel{Name: name, client: p.client}, nil
}
