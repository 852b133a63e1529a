// Package iterstep is an assistant whose turn loop hands each iteration to a step method
// returning only an error, shaped like github.com/henomis/lingoose@v0.3.0 assistant/assistant.go:78-134
// (Run: `for i := 0; i < int(a.maxIterations); i++ { err = a.runIteration(ctx, i); if err != nil
// { return err }; if a.thread.LastMessage().Role != thread.RoleTool { break } }`, runIteration:
// a span, `a.llm.Generate(ctx, a.thread)`, the span closed) and llm/openai/openai.go (Generate
// calls the chat API and runs the reply's tool calls, appending their results to the thread).
package iterstep

import (
	"context"
	"errors"
)

// Role of a message.
type Role string

const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Message is one message of a thread.
type Message struct {
	Role    Role
	Content string
	Calls   []ToolCall
}

// ToolCall is a tool call of a reply.
type ToolCall struct{ Name, Args string }

// Thread is the conversation.
type Thread struct{ Messages []*Message }

// LastMessage is the thread's last message.
func (t *Thread) LastMessage() *Message { return t.Messages[len(t.Messages)-1] }

// AddMessage appends a message.
func (t *Thread) AddMessage(m *Message) *Thread {
	t.Messages = append(t.Messages, m)
	return t
}

// LLM generates the next message(s) of a thread.
type LLM interface {
	Generate(ctx context.Context, t *Thread) error
}

// ChatClient is the provider's chat API.
type ChatClient interface {
	CreateChatCompletion(ctx context.Context, msgs []*Message) (*Message, error)
}

// Tool is a function the model may call.
type Tool interface {
	Name() string
	Call(ctx context.Context, args string) (string, error)
}

// OpenAI is the provider LLM.
type OpenAI struct {
	client ChatClient
	tools  map[string]Tool
}

// Generate asks the model and runs the tools of its reply.
func (o *OpenAI) Generate(ctx context.Context, t *Thread) error {
	reply, err := o.client.CreateChatCompletion(ctx, t.Messages)
	if err != nil {
		return err
	}
	if len(reply.Calls) == 0 {
		t.AddMessage(reply)
		return nil
	}
	for _, c := range reply.Calls {
		tool, ok := o.tools[c.Name]
		if !ok {
			return errors.New("unknown tool " + c.Name)
		}
		out, err := tool.Call(ctx, c.Args)
		if err != nil {
			return err
		}
		t.AddMessage(&Message{Role: RoleTool, Content: out})
	}
	return nil
}

// Assistant runs the thread.
type Assistant struct {
	llm           LLM
	thread        *Thread
	maxIterations uint
}

// New makes an assistant.
func New(llm LLM) *Assistant { return &Assistant{llm: llm, maxIterations: 10} }

// WithThread sets the thread.
func (a *Assistant) WithThread(t *Thread) *Assistant {
	a.thread = t
	return a
}

// Run runs the assistant on its thread.
func (a *Assistant) Run(ctx context.Context) error {
	if a.thread == nil {
		return nil
	}
	var err error
	for i := 0; i < int(a.maxIterations); i++ {
		err = a.runIteration(ctx, i)
		if err != nil {
			return err
		}
		if a.thread.LastMessage().Role != RoleTool {
			break
		}
	}
	return nil
}

func (a *Assistant) runIteration(ctx context.Context, iteration int) error {
	_ = iteration
	err := a.llm.Generate(ctx, a.thread)
	if err != nil {
		return err
	}
	return nil
}
