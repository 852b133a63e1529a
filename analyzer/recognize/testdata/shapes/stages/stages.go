// Package stages runs each model response through a slice of processor interfaces; the
// processor that runs tools dispatches them by name, and its results are appended to the
// next request.
package stages

import (
	"context"

	"example.com/shapes/llm"
)

// Processor handles a model response.
type Processor interface {
	Process(ctx context.Context, resp *llm.Response, msgs *[]llm.Message) error
}

// Pipeline is a turn loop whose response handling is pluggable.
type Pipeline struct {
	c          *llm.Client
	processors []Processor
}

// NewPipeline returns a pipeline with the tool runner and a logger.
func NewPipeline(c *llm.Client, tools map[string]func(string) string) *Pipeline {
	return &Pipeline{c: c, processors: []Processor{logger{}, &toolRunner{tools: tools}}}
}

// Run runs until the model answers without tool calls.
func (p *Pipeline) Run(ctx context.Context, prompt string) (string, error) {
	msgs := []llm.Message{{Role: "user", Content: prompt}}
	for {
		resp, err := p.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, pr := range p.processors {
			if err := pr.Process(ctx, resp, &msgs); err != nil {
				return "", err
			}
		}
	}
}

type logger struct{}

func (logger) Process(ctx context.Context, resp *llm.Response, msgs *[]llm.Message) error { return nil }

type toolRunner struct {
	tools map[string]func(string) string
}

func (t *toolRunner) Process(ctx context.Context, resp *llm.Response, msgs *[]llm.Message) error {
	for _, tc := range resp.Choices[0].Message.ToolCalls {
		fn, ok := t.tools[tc.Function.Name]
		if !ok {
			continue
		}
		*msgs = append(*msgs, llm.Message{Role: "tool", Content: fn(tc.Function.Arguments), ToolCallID: tc.ID})
	}
	return nil
}
