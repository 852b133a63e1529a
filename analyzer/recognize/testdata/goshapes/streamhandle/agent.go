// Package streamhandle streams one answer behind a stream handle: RunStream starts a goroutine
// that makes one model call through a provider interface, drains its tokens, parses the tool
// calls the text asks for and runs them once (a name compared against each tool's), writing
// chunks on the writer of the Stream it returns, an interface whose Chunks() hands out the
// channel the caller ranges over. No turn loop: a run of one step. Modelled on
// agenticgokit@v0.5.5 v1beta/agent_impl.go:803-1026 (RunStream, go func at 854,
// llmProvider.Stream at 910, ParseToolCalls at 978, executeToolsAndStream at 982 testing
// len(toolCalls) == 0 at 1970; executeTool
// 1401-1415) and v1beta/streaming.go:134-146 (type Stream interface { Chunks() <-chan
// *StreamChunk; Wait() (*Result, error); … }).
package streamhandle

import (
	"context"
	"errors"
	"strings"
)

// Token is one streamed token of the provider.
type Token struct {
	Content string
	Error   error
}

// Prompt is what the provider is asked.
type Prompt struct {
	System, User string
}

// Provider is the model provider.
type Provider interface {
	Stream(ctx context.Context, p Prompt) (<-chan Token, error)
}

// Chunk is one chunk of the answer's stream.
type Chunk struct {
	Delta string
	Err   error
}

// Stream is the handle of a streamed run.
type Stream interface {
	Chunks() <-chan *Chunk
	Wait() (string, error)
	Cancel()
}

type basicStream struct {
	ch     chan *Chunk
	result string
}

func (s *basicStream) Chunks() <-chan *Chunk { return s.ch }
func (s *basicStream) Wait() (string, error) { return s.result, nil }
func (s *basicStream) Cancel()               {}
func (s *basicStream) write(c *Chunk)        { s.ch <- c }
func (s *basicStream) close()                { close(s.ch) }

// ToolCall is one call the reply's text asks for.
type ToolCall struct {
	Name string
	Args string
}

// Tool is a tool the agent may run.
type Tool interface {
	Name() string
	Execute(ctx context.Context, args string) (string, error)
}

// Agent answers in one streamed step.
type Agent struct {
	provider    Provider
	tools       []Tool
	initialized bool
	history     []string
}

// RunStream starts the answer and returns its stream.
func (a *Agent) RunStream(ctx context.Context, input string) (Stream, error) {
	if !a.initialized {
		return nil, errors.New("agent not initialized")
	}
	if a.provider == nil {
		return nil, errors.New("no LLM provider configured")
	}
	s := &basicStream{ch: make(chan *Chunk, 16)}
	go func() {
		defer s.close()
		tokens, err := a.provider.Stream(ctx, Prompt{User: input})
		if err != nil {
			s.write(&Chunk{Err: err})
			return
		}
		var b strings.Builder
		for tok := range tokens {
			if tok.Error != nil {
				s.write(&Chunk{Err: tok.Error})
				return
			}
			b.WriteString(tok.Content)
			s.write(&Chunk{Delta: tok.Content})
		}
		content := b.String()
		if len(a.tools) > 0 {
			if err := a.executeTools(ctx, parseToolCalls(content), s); err != nil {
				s.write(&Chunk{Err: err})
				return
			}
		}
		if err := a.remember(ctx, input, content); err != nil {
			s.write(&Chunk{Err: err})
		}
		s.result = content
		s.write(&Chunk{Delta: ""})
	}()
	return s, nil
}

func (a *Agent) remember(ctx context.Context, input, content string) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	a.history = append(a.history, input, content)
	return nil
}

func parseToolCalls(content string) []ToolCall {
	var out []ToolCall
	for _, line := range strings.Split(content, "\n") {
		if name, args, ok := strings.Cut(strings.TrimPrefix(line, "TOOL_CALL "), " "); ok && strings.HasPrefix(line, "TOOL_CALL ") {
			out = append(out, ToolCall{Name: name, Args: args})
		}
	}
	return out
}

func (a *Agent) executeTools(ctx context.Context, calls []ToolCall, s *basicStream) error {
	if len(calls) == 0 {
		return nil
	}
	for _, call := range calls {
		out, err := a.executeTool(ctx, call)
		if err != nil {
			return err
		}
		s.write(&Chunk{Delta: out})
	}
	return nil
}

func (a *Agent) executeTool(ctx context.Context, call ToolCall) (string, error) {
	var tool Tool
	for _, t := range a.tools {
		if t.Name() == call.Name {
			tool = t
			break
		}
	}
	if tool == nil {
		return "", errors.New("tool not found: " + call.Name)
	}
	return tool.Execute(ctx, call.Args)
}
