// Package helpertool looks its tools up by name in a package-level helper that both the turn
// loop and a recursive step call.
package helpertool

import (
	"context"
	"fmt"
)

// Message is one chat message.
type Message struct {
	Role, Content string
}

// ToolCall is a call the model asks for.
type ToolCall struct {
	Name string
	Args map[string]any
}

// Completion is a model answer.
type Completion struct {
	Text  string
	Calls []ToolCall
}

// LLM completes a conversation.
type LLM interface {
	Complete(ctx context.Context, msgs []Message) (Completion, error)
}

// Tool runs with arguments.
type Tool interface {
	Run(ctx context.Context, args map[string]any) (string, error)
}

func runTool(ctx context.Context, tools map[string]Tool, call ToolCall) (string, error) {
	t, ok := tools[call.Name]
	if !ok {
		return "", fmt.Errorf("no tool %q", call.Name)
	}
	return t.Run(ctx, call.Args)
}

// Agent is a tool-using agent.
type Agent struct {
	llm   LLM
	tools map[string]Tool
	max   int
}

// Loop runs the task in a for loop.
func (a *Agent) Loop(ctx context.Context, task string) (string, error) {
	msgs := []Message{{Role: "user", Content: task}}
	for i := 0; i < a.max; i++ {
		c, err := a.llm.Complete(ctx, msgs)
		if err != nil {
			return "", err
		}
		if len(c.Calls) == 0 {
			return c.Text, nil
		}
		for _, call := range c.Calls {
			out, err := runTool(ctx, a.tools, call)
			if err != nil {
				out = err.Error()
			}
			msgs = append(msgs, Message{Role: "tool", Content: out})
		}
	}
	return "", fmt.Errorf("no answer after %d steps", a.max)
}

// Recurse runs the task as a recursion of steps.
func (a *Agent) Recurse(ctx context.Context, task string) (string, error) {
	return a.step(ctx, []Message{{Role: "user", Content: task}}, 0)
}

func (a *Agent) step(ctx context.Context, msgs []Message, depth int) (string, error) {
	if depth >= a.max {
		return "", fmt.Errorf("depth %d", depth)
	}
	c, err := a.llm.Complete(ctx, msgs)
	if err != nil {
		return "", err
	}
	if len(c.Calls) == 0 {
		return c.Text, nil
	}
	for _, call := range c.Calls {
		out, err := runTool(ctx, a.tools, call)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, Message{Role: "tool", Content: out})
	}
	return a.step(ctx, msgs, depth+1)
}
