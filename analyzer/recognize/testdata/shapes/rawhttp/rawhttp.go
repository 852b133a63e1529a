// Package rawhttp calls a model API with a raw http.Client.Do inside a retry callback, decodes
// the body into a response declared outside the callback, and runs the tools the decoded
// response names: the turn loop of a hand-written provider client.
package rawhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// Block is one content block of a reply.
type Block struct {
	Type  string          `json:"type"`
	Text  string          `json:"text"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// Reply is the API's response.
type Reply struct {
	Content []Block `json:"content"`
}

// Msg is a request message.
type Msg struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
}

// Tool is a callable tool.
type Tool interface {
	Name() string
	Execute(ctx context.Context, input string) (string, error)
}

// Retrier retries an operation.
type Retrier interface {
	Do(ctx context.Context, op func() error) error
}

// Client is a provider client.
type Client struct {
	HTTP  *http.Client
	URL   string
	Retry Retrier
}

// Generate runs the tool loop.
func (c *Client) Generate(ctx context.Context, msgs []Msg, tools []Tool, maxIterations int) (string, error) {
	for iteration := 0; iteration < maxIterations; iteration++ {
		body, _ := json.Marshal(msgs)
		var resp Reply
		op := func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
			if err != nil {
				return err
			}
			httpResp, err := c.HTTP.Do(req)
			if err != nil {
				return fmt.Errorf("send: %w", err)
			}
			defer httpResp.Body.Close()
			data, err := io.ReadAll(httpResp.Body)
			if err != nil {
				return err
			}
			return json.Unmarshal(data, &resp)
		}
		if err := c.Retry.Do(ctx, op); err != nil {
			return "", err
		}
		var calls []Block
		text := ""
		for _, b := range resp.Content {
			if b.Type == "tool_use" {
				calls = append(calls, b)
			} else {
				text += b.Text
			}
		}
		if len(calls) == 0 {
			return text, nil
		}
		msgs = append(msgs, Msg{Role: "assistant", Content: resp.Content})
		for _, call := range calls {
			var selected Tool
			for _, t := range tools {
				if t.Name() == call.Name {
					selected = t
				}
			}
			if selected == nil {
				continue
			}
			out, err := selected.Execute(ctx, string(call.Input))
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, Msg{Role: "user", Content: []Block{{Type: "tool_result", ID: call.ID, Text: out}}})
		}
	}
	return "", nil
}
