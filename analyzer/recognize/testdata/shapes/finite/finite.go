// Package finite calls the model once per document of a finite slice: not a turn loop.
package finite

import (
	"context"

	"example.com/shapes/llm"
)

// Summarize summarizes every document.
func Summarize(ctx context.Context, c *llm.Client, docs []string) ([]string, error) {
	var out []string
	for _, d := range docs {
		resp, err := c.Chat(ctx, llm.Request{Messages: []llm.Message{{Role: "user", Content: d}}})
		if err != nil {
			return nil, err
		}
		out = append(out, resp.Choices[0].Message.Content)
	}
	return out, nil
}
