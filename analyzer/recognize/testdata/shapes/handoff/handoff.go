// Package handoff is a hand-off agent runner: the active agent's tools may hand the
// conversation to another agent. The turn loop is bounded by how much the history has grown
// (len(history)-initLen < maxTurns, maxTurns an int parameter without a default) in a compound
// condition with the active agent; the tool results come back in a field of a helper's result.
// Run returns silently at the bound; RunStream runs the same loop in a goroutine and streams.
package handoff

import (
	"context"

	"example.com/shapes/llm"
)

// Agent is one agent of the hand-off graph.
type Agent struct {
	Name      string
	Functions map[string]func(args string) Result
}

// Result is what a tool function returns: a value, and the agent to hand off to, if any.
type Result struct {
	Value string
	Agent *Agent
}

// Response is what a run or a batch of tool calls produced.
type Response struct {
	Messages []llm.Message
	Agent    *Agent
}

// Client runs agents.
type Client struct{ c *llm.Client }

// handleToolCalls runs each tool call by name and collects the tool messages.
func (cl *Client) handleToolCalls(calls []llm.ToolCall, fns map[string]func(string) Result) Response {
	var partial Response
	for _, tc := range calls {
		fn, ok := fns[tc.Function.Name]
		if !ok {
			partial.Messages = append(partial.Messages, llm.Message{Role: "tool", Content: "unknown tool", ToolCallID: tc.ID})
			continue
		}
		res := fn(tc.Function.Arguments)
		partial.Messages = append(partial.Messages, llm.Message{Role: "tool", Content: res.Value, ToolCallID: tc.ID})
		if res.Agent != nil {
			partial.Agent = res.Agent
		}
	}
	return partial
}

// Run runs the active agent until it answers without tool calls or maxTurns messages were
// added.
func (cl *Client) Run(ctx context.Context, agent *Agent, messages []llm.Message, maxTurns int, executeTools bool) (*Response, error) {
	active := agent
	initLen := len(messages)
	history := make([]llm.Message, len(messages))
	copy(history, messages)
	for len(history)-initLen < maxTurns && active != nil {
		completion, err := cl.c.Chat(ctx, llm.Request{Messages: history})
		if err != nil {
			return nil, err
		}
		msg := completion.Choices[0].Message
		history = append(history, msg)
		if len(msg.ToolCalls) == 0 || !executeTools {
			break
		}
		partial := cl.handleToolCalls(msg.ToolCalls, active.Functions)
		history = append(history, partial.Messages...)
		if partial.Agent != nil {
			active = partial.Agent
		}
	}
	return &Response{Messages: history[initLen:], Agent: active}, nil
}

// Event is one streamed event.
type Event struct {
	Message  *llm.Message
	Response *Response
	Err      error
}

// RunStream runs the same loop in a goroutine and streams its messages.
func (cl *Client) RunStream(ctx context.Context, agent *Agent, messages []llm.Message, maxTurns int) <-chan Event {
	out := make(chan Event)
	go func() {
		defer close(out)
		active := agent
		initLen := len(messages)
		history := make([]llm.Message, len(messages))
		copy(history, messages)
		for len(history)-initLen < maxTurns && active != nil {
			completion, err := cl.c.Chat(ctx, llm.Request{Messages: history})
			if err != nil {
				out <- Event{Err: err}
				return
			}
			msg := completion.Choices[0].Message
			out <- Event{Message: &msg}
			history = append(history, msg)
			if len(msg.ToolCalls) == 0 {
				break
			}
			partial := cl.handleToolCalls(msg.ToolCalls, active.Functions)
			history = append(history, partial.Messages...)
			if partial.Agent != nil {
				active = partial.Agent
			}
		}
		out <- Event{Response: &Response{Messages: history[initLen:], Agent: active}}
	}()
	return out
}

// ChatModel is a provider behind an interface.
type ChatModel interface {
	Generate(ctx context.Context, msgs []llm.Message) (*llm.Message, error)
}

// Runner runs agents on a ChatModel.
type Runner struct{ Model ChatModel }

// step asks the model once and runs the tools it asks for: the new messages come back in a
// field of its result.
func (r *Runner) step(ctx context.Context, active *Agent, history []llm.Message) (*Response, error) {
	msg, err := r.Model.Generate(ctx, history)
	if err != nil {
		return nil, err
	}
	resp := &Response{Messages: []llm.Message{*msg}, Agent: active}
	if len(msg.ToolCalls) == 0 {
		resp.Agent = nil
		return resp, nil
	}
	for _, tc := range msg.ToolCalls {
		if fn, ok := active.Functions[tc.Function.Name]; ok {
			res := fn(tc.Function.Arguments)
			resp.Messages = append(resp.Messages, llm.Message{Role: "tool", Content: res.Value, ToolCallID: tc.ID})
			if res.Agent != nil {
				resp.Agent = res.Agent
			}
		}
	}
	return resp, nil
}

// Run steps until no agent is active or maxTurns messages were added.
func (r *Runner) Run(ctx context.Context, agent *Agent, messages []llm.Message, maxTurns int) ([]llm.Message, error) {
	active := agent
	initLen := len(messages)
	history := make([]llm.Message, len(messages))
	copy(history, messages)
	for len(history)-initLen < maxTurns && active != nil {
		resp, err := r.step(ctx, active, history)
		if err != nil {
			return nil, err
		}
		history = append(history, resp.Messages...)
		active = resp.Agent
	}
	return history[initLen:], nil
}

// Stream runs the same loop in a goroutine.
func (r *Runner) Stream(ctx context.Context, agent *Agent, messages []llm.Message, maxTurns int) <-chan Event {
	out := make(chan Event)
	go func() {
		defer close(out)
		active := agent
		initLen := len(messages)
		history := make([]llm.Message, len(messages))
		copy(history, messages)
		for len(history)-initLen < maxTurns && active != nil {
			resp, err := r.step(ctx, active, history)
			if err != nil {
				out <- Event{Err: err}
				return
			}
			for i := range resp.Messages {
				out <- Event{Message: &resp.Messages[i]}
			}
			history = append(history, resp.Messages...)
			active = resp.Agent
		}
	}()
	return out
}
