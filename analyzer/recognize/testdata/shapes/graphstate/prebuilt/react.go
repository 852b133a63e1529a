// Package prebuilt builds a ReAct agent on the state graph: a model node asks the model with
// the messages of the state and routes to the tools node while the reply has tool calls; a
// tools node runs the tool calls of the last message one after the other and routes back.
// The two nodes never see each other's return values: the reply and the tool results travel
// through the "messages" channel, appended by its reducer at each superstep barrier.
package prebuilt

import (
	"context"
	"errors"
	"fmt"

	"example.com/shapes/graphstate/graph"
)

// ToolCall is a call the model asked for.
type ToolCall struct {
	ID, Name, Args string
}

// Message is a chat message.
type Message struct {
	Role      string
	Text      string
	ToolCalls []ToolCall
	CallID    string
}

// Model asks a provider.
type Model interface {
	Generate(ctx context.Context, msgs []Message, tools []string) (*Message, error)
}

// Tool is a callable tool.
type Tool interface {
	Name() string
	Call(ctx context.Context, args string) (string, error)
}

// MessagesKey is the channel holding the conversation.
const MessagesKey = "messages"

func messages(scope graph.Scope) []Message {
	v, ok := scope.Get(MessagesKey)
	if !ok {
		return nil
	}
	msgs, _ := v.([]Message)
	return msgs
}

func lastMessage(scope graph.Scope) *Message {
	msgs := messages(scope)
	if len(msgs) == 0 {
		return nil
	}
	return &msgs[len(msgs)-1]
}

// appendMessages is the messages channel's reducer.
func appendMessages(old, update any) any {
	o, _ := old.([]Message)
	u, _ := update.([]Message)
	return append(o, u...)
}

// NewModelNode returns the node that asks the model.
func NewModelNode(m Model, tools []Tool) graph.NodeFunc {
	var names []string
	for _, t := range tools {
		names = append(names, t.Name())
	}
	return func(ctx context.Context, scope graph.Scope) (*graph.Command, error) {
		reply, err := m.Generate(ctx, messages(scope), names)
		if err != nil {
			return nil, fmt.Errorf("model: %w", err)
		}
		cmd := &graph.Command{Updates: map[string]any{MessagesKey: []Message{*reply}}}
		if len(reply.ToolCalls) > 0 {
			cmd.Next = []string{"tools"}
		} else {
			cmd.Next = []string{graph.END}
		}
		return cmd, nil
	}
}

// Call is one tool call to execute.
type Call struct{ ID, Name, Args string }

// Result is a tool call's result.
type Result struct {
	ID, Output string
}

// Executor runs tool calls one after the other, each looked up by name.
type Executor struct{ registry map[string]Tool }

// Execute runs the calls.
func (e *Executor) Execute(ctx context.Context, calls []Call) ([]Result, error) {
	results := make([]Result, 0, len(calls))
	for _, c := range calls {
		t, ok := e.registry[c.Name]
		if !ok {
			results = append(results, Result{ID: c.ID, Output: "unknown tool " + c.Name})
			continue
		}
		out, err := t.Call(ctx, c.Args)
		if err != nil {
			return nil, err
		}
		results = append(results, Result{ID: c.ID, Output: out})
	}
	return results, nil
}

func toCalls(tcs []ToolCall) []Call {
	calls := make([]Call, len(tcs))
	for i, tc := range tcs {
		calls[i] = Call{ID: tc.ID, Name: tc.Name, Args: tc.Args}
	}
	return calls
}

// NewToolNode returns the node that runs the last message's tool calls.
func NewToolNode(tools []Tool) graph.NodeFunc {
	ex := &Executor{registry: map[string]Tool{}}
	for _, t := range tools {
		ex.registry[t.Name()] = t
	}
	return func(ctx context.Context, scope graph.Scope) (*graph.Command, error) {
		last := lastMessage(scope)
		if last == nil || len(last.ToolCalls) == 0 {
			return &graph.Command{Next: []string{"model"}}, nil
		}
		results, err := ex.Execute(ctx, toCalls(last.ToolCalls))
		if err != nil {
			return nil, fmt.Errorf("tools: %w", err)
		}
		var out []Message
		for _, r := range results {
			out = append(out, Message{Role: "tool", Text: r.Output, CallID: r.ID})
		}
		return &graph.Command{Updates: map[string]any{MessagesKey: out}, Next: []string{"model"}}, nil
	}
}

// NewReAct builds the agent graph.
func NewReAct(m Model, tools []Tool) (*graph.Graph, error) {
	if m == nil {
		return nil, errors.New("prebuilt: no model")
	}
	return graph.New().
		Channel(MessagesKey, appendMessages).
		Node("model", NewModelNode(m, tools)).
		Node("tools", NewToolNode(tools)).
		Start("model").
		Build()
}
