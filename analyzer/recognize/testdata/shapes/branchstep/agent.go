// Package branchstep asks the model in one of two ways each step — streaming or blocking, in
// the two branches of an if — and opens the conversation through another interface when no
// tool results are pending yet: every one of those calls is a model call of the same step.
package branchstep

import (
	"context"
	"errors"
)

// ToolCall is a call the model asks for.
type ToolCall struct{ ID, Name, Args string }

// Message is one chat message.
type Message struct {
	Role      string
	Content   string
	ToolCalls []ToolCall
	CallID    string
}

// ChatModel answers a conversation, all at once or streamed and gathered.
type ChatModel interface {
	Generate(ctx context.Context, msgs []Message) (*Message, error)
	Stream(ctx context.Context, msgs []Message) (*Message, error)
}

// Opener answers the first prompt of a conversation.
type Opener interface {
	Open(ctx context.Context, system, prompt string) (*Message, error)
}

// Tool runs a tool.
type Tool interface {
	Invoke(ctx context.Context, args string) (string, error)
}

// Agent answers with tools.
type Agent struct {
	model    ChatModel
	opener   Opener
	tools    map[string]Tool
	system   string
	stream   bool
	maxSteps int
}

// New returns an agent.
func New(model ChatModel, opener Opener, tools map[string]Tool, stream bool) *Agent {
	return &Agent{model: model, opener: opener, tools: tools, stream: stream, maxSteps: 12}
}

// Run answers prompt.
func (a *Agent) Run(ctx context.Context, prompt string) (string, error) {
	msgs := []Message{{Role: "user", Content: prompt}}
	var results []Message
	for step := 0; step < a.maxSteps; step++ {
		reply, err := a.decide(ctx, prompt, msgs, results)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, results...)
		msgs = append(msgs, *reply)
		if len(reply.ToolCalls) == 0 {
			return reply.Content, nil
		}
		results = nil
		for _, tc := range reply.ToolCalls {
			t, ok := a.tools[tc.Name]
			if !ok {
				results = append(results, Message{Role: "tool", CallID: tc.ID, Content: "no such tool"})
				continue
			}
			out, err := t.Invoke(ctx, tc.Args)
			if err != nil {
				out = err.Error()
			}
			results = append(results, Message{Role: "tool", CallID: tc.ID, Content: out})
		}
	}
	return "", errors.New("branchstep: step limit reached")
}

// decide asks for the next message: the opener when nothing has happened yet, else the chat
// model, streamed or not.
func (a *Agent) decide(ctx context.Context, prompt string, msgs, results []Message) (*Message, error) {
	if len(results) == 0 && len(msgs) == 1 && a.opener != nil {
		return a.opener.Open(ctx, a.system, prompt)
	}
	in := append(append([]Message{}, msgs...), results...)
	var r *Message
	var err error
	if a.stream {
		r, err = a.model.Stream(ctx, in)
	} else {
		r, err = a.model.Generate(ctx, in)
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}
