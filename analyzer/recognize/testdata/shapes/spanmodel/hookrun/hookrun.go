// Package hookrun is a runner whose tools are looked up by name and run through an
// interface, told to lifecycle hooks before and after: hooks a struct fans out to its
// observers, hooks of the agent, and events emitted to listeners.
package hookrun

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"example.com/shapes/spanmodel/llm"
)

// Tool is a function the model may call.
type Tool interface {
	Name() string
	Invoke(ctx context.Context, args string) (string, error)
}

// AgentHooks observe one agent; OnToolStart may return a context carrying what OnToolEnd needs.
type AgentHooks interface {
	OnToolStart(ctx context.Context, agent *Agent, tool Tool) context.Context
	OnToolEnd(ctx context.Context, agent *Agent, tool Tool, result string)
}

// Agent is a model with tools.
type Agent struct {
	Name   string
	Model  string
	Tools  []Tool
	Hooks  AgentHooks
	client llm.Client
}

// Observer is told of a run's lifecycle.
type Observer interface {
	ToolStarted(ctx context.Context, agent *Agent, tool Tool) error
	ToolEnded(ctx context.Context, agent *Agent, tool Tool, result string) error
}

// HookSet fans a run's lifecycle out to its observers.
type HookSet struct {
	mu        sync.Mutex
	observers []Observer
	started   map[string]int
}

// OnToolStart tells every observer a tool starts.
func (h *HookSet) OnToolStart(ctx context.Context, agent *Agent, tool Tool) error {
	h.mu.Lock()
	if h.started == nil {
		h.started = map[string]int{}
	}
	h.started[tool.Name()]++
	h.mu.Unlock()
	var errs []error
	for _, o := range h.observers {
		errs = append(errs, o.ToolStarted(ctx, agent, tool))
	}
	return errors.Join(errs...)
}

// OnToolEnd tells every observer a tool returned.
func (h *HookSet) OnToolEnd(ctx context.Context, agent *Agent, tool Tool, result string) error {
	var errs []error
	for _, o := range h.observers {
		errs = append(errs, o.ToolEnded(ctx, agent, tool, result))
	}
	return errors.Join(errs...)
}

// Event is one lifecycle event.
type Event struct {
	Kind   string
	Tool   Tool
	Result string
}

// Runner runs agents.
type Runner struct {
	Hooks     *HookSet
	MaxTurns  int
	listeners []func(Event)
	// OnCall, when set, is told of each call the model asks for before it runs.
	OnCall func(ctx context.Context, name, args string)
}

func (r *Runner) emit(ev Event) {
	for _, l := range r.listeners {
		l(ev)
	}
}

// Run runs agent on input until it answers without calling tools.
func (r *Runner) Run(ctx context.Context, agent *Agent, input string) (string, error) {
	byName := map[string]Tool{}
	var params []llm.ToolParam
	for _, t := range agent.Tools {
		byName[t.Name()] = t
		params = append(params, llm.ToolParam{Name: t.Name()})
	}
	items := []llm.InputItem{{Type: "message", Role: "user", Content: input}}
	for turn := 0; turn < r.MaxTurns; turn++ {
		resp, err := agent.client.Responses.New(ctx, llm.ResponseNewParams{Model: agent.Model, Input: items, Tools: params})
		if err != nil {
			return "", err
		}
		var calls []llm.OutputItem
		text := ""
		for _, item := range resp.Output {
			switch item.Type {
			case "function_call":
				calls = append(calls, item)
				items = append(items, llm.InputItem{Type: "function_call", CallID: item.CallID, Name: item.Name, Arguments: item.Arguments})
			case "message":
				text = item.Text
			}
		}
		if len(calls) == 0 {
			return text, nil
		}
		for _, call := range calls {
			if r.OnCall != nil {
				r.OnCall(ctx, call.Name, call.Arguments)
			}
			tool, ok := byName[call.Name]
			if !ok {
				items = append(items, llm.InputItem{Type: "function_call_output", CallID: call.CallID, Output: "no such tool"})
				continue
			}
			if err := r.Hooks.OnToolStart(ctx, agent, tool); err != nil {
				return "", err
			}
			tctx := ctx
			if agent.Hooks != nil {
				tctx = agent.Hooks.OnToolStart(ctx, agent, tool)
			}
			r.emit(Event{Kind: "tool_start", Tool: tool})
			out, err := tool.Invoke(ctx, call.Arguments)
			if err != nil {
				out = fmt.Sprintf("error: %v", err)
			}
			r.emit(Event{Kind: "tool_end", Tool: tool, Result: out})
			if agent.Hooks != nil {
				agent.Hooks.OnToolEnd(tctx, agent, tool, out)
			}
			if err := r.Hooks.OnToolEnd(ctx, agent, tool, out); err != nil {
				return "", err
			}
			items = append(items, llm.InputItem{Type: "function_call_output", CallID: call.CallID, Output: out})
		}
	}
	return "", errors.New("hookrun: max turns exceeded")
}
