// Package cbchat is an agent loop embedded in a CLI, shaped like ollama's experimental agent
// (github.com/ollama/ollama@v0.17.4 x/cmd/run.go:164-513 Chat, 664-1080 GenerateInteractive;
// x/tools/registry.go:94-100 Execute): the loop calls the SDK client's Chat with a callback
// that collects each streamed part's tool calls into a captured slice; after the call the loop
// leaves when none are pending, otherwise runs each through a registry (a map by name),
// appends the results and calls the model again. A model call that fails with
// context.Canceled ends the run (return nil, nil); consecutive server errors are retried
// three times, the counter reset after every successful call (a retry limit, not a bound on
// tool rounds). A REPL runs one Chat per line of input.
package cbchat

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"example.com/goshapes/cbchat/api"
)

// Tool is a built-in tool.
type Tool interface {
	Name() string
	Execute(args map[string]any) (string, error)
}

// Registry holds the tools by name.
type Registry struct{ tools map[string]Tool }

// Execute runs the tool a call names.
func (r *Registry) Execute(call api.ToolCall) (string, error) {
	tool, ok := r.tools[call.Function.Name]
	if !ok {
		return "", fmt.Errorf("unknown tool: %s", call.Function.Name)
	}
	return tool.Execute(call.Function.Arguments)
}

// Options are a chat's options.
type Options struct {
	Model    string
	Messages []api.Message
	Tools    *Registry
}

// Chat runs the agent loop for one user message.
func Chat(ctx context.Context, opts Options) (*api.Message, error) {
	client := api.NewClient(os.Getenv("HOST"))
	if opts.Model == "" {
		return nil, errors.New("no model")
	}
	var full strings.Builder
	var pendingToolCalls []api.ToolCall
	var consecutiveErrors int
	messages := opts.Messages

	fn := func(response api.ChatResponse) error {
		full.WriteString(response.Message.Content)
		if len(response.Message.ToolCalls) > 0 {
			pendingToolCalls = append(pendingToolCalls, response.Message.ToolCalls...)
		}
		return nil
	}

	for {
		req := &api.ChatRequest{Model: opts.Model, Messages: messages}
		if err := client.Chat(ctx, req, fn); err != nil {
			if errors.Is(err, context.Canceled) {
				return nil, nil
			}
			var statusErr api.StatusError
			if errors.As(err, &statusErr) && statusErr.StatusCode >= 500 {
				consecutiveErrors++
				if consecutiveErrors >= 3 {
					return nil, fmt.Errorf("too many consecutive server errors: %s", statusErr.ErrorMessage)
				}
				messages = append(messages, api.Message{Role: "user", Content: "Your previous response caused an error: " + statusErr.ErrorMessage})
				full.Reset()
				pendingToolCalls = nil
				continue
			}
			return nil, err
		}
		consecutiveErrors = 0

		if len(pendingToolCalls) == 0 || opts.Tools == nil {
			break
		}
		messages = append(messages, api.Message{Role: "assistant", Content: full.String(), ToolCalls: pendingToolCalls})
		var results []api.Message
		for _, call := range pendingToolCalls {
			out, err := opts.Tools.Execute(call)
			if err != nil {
				out = "Error: " + err.Error()
			}
			results = append(results, api.Message{Role: "tool", Content: out, ToolCallID: call.ID})
		}
		messages = append(messages, results...)
		full.Reset()
		pendingToolCalls = nil
	}
	return &api.Message{Role: "assistant", Content: full.String()}, nil
}

// Interactive reads user lines and runs one Chat for each.
func Interactive(ctx context.Context, in io.Reader, model string, tools *Registry) error {
	scanner := bufio.NewScanner(in)
	var messages []api.Message
	for scanner.Scan() {
		line := scanner.Text()
		if line == "/bye" {
			return nil
		}
		messages = append(messages, api.Message{Role: "user", Content: line})
		reply, err := Chat(ctx, Options{Model: model, Messages: messages, Tools: tools})
		if err != nil {
			return err
		}
		if reply != nil {
			messages = append(messages, *reply)
		}
	}
	return scanner.Err()
}
