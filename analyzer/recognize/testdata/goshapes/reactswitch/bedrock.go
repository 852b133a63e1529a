package main

import (
	"context"
	"encoding/json"
	"fmt"

	"example.com/goshapes/bedrockrt"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

// Client asks the model (toumakido/reAct@0732c2c lib/bedrock/client.go).
type Client struct {
	client  *bedrockrt.Client
	modelID string
}

type invokeRequest struct {
	AnthropicVersion string    `json:"anthropic_version"`
	MaxTokens        int       `json:"max_tokens"`
	System           string    `json:"system,omitempty"`
	Messages         []Message `json:"messages"`
}

type invokeResponse struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	Usage struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

// InvokeResult is the reply's text and usage.
type InvokeResult struct {
	Text         string
	InputTokens  int
	OutputTokens int
}

// InvokeModel sends messages to the model and returns its reply.
func (c *Client) InvokeModel(ctx context.Context, systemPrompt string, messages []Message) (*InvokeResult, error) {
	requestBody, err := json.Marshal(invokeRequest{AnthropicVersion: "bedrock-2023-05-31", MaxTokens: 4096, System: systemPrompt, Messages: messages})
	if err != nil {
		return nil, fmt.Errorf("failed to marshal request: %w", err)
	}
	contentType := "application/json"
	output, err := c.client.InvokeModel(ctx, &bedrockrt.InvokeModelInput{ModelId: &c.modelID, ContentType: &contentType, Body: requestBody})
	if err != nil {
		return nil, fmt.Errorf("failed to invoke model: %w", err)
	}
	var response invokeResponse
	if err := json.Unmarshal(output.Body, &response); err != nil {
		return nil, fmt.Errorf("failed to unmarshal response: %w", err)
	}
	if len(response.Content) == 0 {
		return nil, fmt.Errorf("no content in response")
	}
	return &InvokeResult{Text: response.Content[0].Text, InputTokens: response.Usage.InputTokens, OutputTokens: response.Usage.OutputTokens}, nil
}
