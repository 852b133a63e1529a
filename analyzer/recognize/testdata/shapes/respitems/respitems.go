// Package respitems is a runner on a responses-style API: the model answers a list of output
// items of several kinds (a union told apart by a Type string), the function calls among them
// are collected by a processing step that looks each one's tool up in a map by name, the tools
// are function-valued fields run in goroutines, and the per-turn function returns the kind of
// next step the turn loop (in a closure handed to a tracing wrapper) switches on.
package respitems

import (
	"context"
	"errors"
	"sync"
)

// OutputItem is one item of a response: a message, a function call or a reasoning item.
type OutputItem struct {
	Type      string
	ID        string
	Content   string
	Name      string
	Arguments string
	CallID    string
}

// Response is a model response.
type Response struct {
	ID     string
	Output []OutputItem
}

// Client is a provider client.
type Client struct{ Key string }

// NewResponse asks the model.
func (c *Client) NewResponse(ctx context.Context, input []OutputItem) (*Response, error) {
	return &Response{}, nil
}

// Model answers items.
type Model interface {
	GetResponse(ctx context.Context, input []OutputItem) (*Response, error)
}

// ResponsesModel is a Model over the responses API.
type ResponsesModel struct{ C *Client }

// GetResponse implements Model.
func (m ResponsesModel) GetResponse(ctx context.Context, input []OutputItem) (*Response, error) {
	return m.C.NewResponse(ctx, input)
}

// FakeModel is a scripted Model.
type FakeModel struct{ Outputs [][]OutputItem }

// GetResponse implements Model.
func (m *FakeModel) GetResponse(ctx context.Context, input []OutputItem) (*Response, error) {
	if len(m.Outputs) == 0 {
		return &Response{}, nil
	}
	out := m.Outputs[0]
	m.Outputs = m.Outputs[1:]
	return &Response{Output: out}, nil
}

// FunctionTool is a tool backed by a function.
type FunctionTool struct {
	Name         string
	OnInvokeTool func(ctx context.Context, arguments string) (any, error)
}

// Agent is a configured agent.
type Agent struct {
	Name  string
	Model Model
	Tools []FunctionTool
}

// ToolRun is one function call to run.
type ToolRun struct {
	Call OutputItem
	Tool FunctionTool
}

// Processed is a processed response.
type Processed struct {
	Items     []OutputItem
	Functions []ToolRun
}

// NextStep is what comes after a turn.
type NextStep interface{ isNext() }

// Final ends the run with an output.
type Final struct{ Output string }

// Again runs another turn.
type Again struct{}

func (Final) isNext() {}
func (Again) isNext() {}

// StepResult is the result of a turn.
type StepResult struct {
	Items []OutputItem
	Next  NextStep
}

// Runner runs agents.
type Runner struct{ MaxTurns int }

// ErrMaxTurns is returned past the last turn.
var ErrMaxTurns = errors.New("max turns exceeded")

func traced(ctx context.Context, fn func(ctx context.Context) error) error { return fn(ctx) }

// Run runs the agent.
func (r Runner) Run(ctx context.Context, agent *Agent, input string) (string, error) {
	var final string
	err := traced(ctx, func(ctx context.Context) error {
		items := []OutputItem{{Type: "message", Content: input}}
		turn := 0
		for {
			turn++
			if turn > r.MaxTurns {
				return ErrMaxTurns
			}
			res, err := r.singleTurn(ctx, agent, items)
			if err != nil {
				return err
			}
			items = append(items, res.Items...)
			switch next := res.Next.(type) {
			case Final:
				final = next.Output
				return nil
			case Again:
			}
		}
	})
	return final, err
}

func (r Runner) singleTurn(ctx context.Context, agent *Agent, items []OutputItem) (*StepResult, error) {
	resp, err := agent.Model.GetResponse(ctx, items)
	if err != nil {
		return nil, err
	}
	processed := process(agent, *resp)
	return execute(ctx, processed)
}

func process(agent *Agent, resp Response) Processed {
	functions := make(map[string]FunctionTool)
	for _, t := range agent.Tools {
		functions[t.Name] = t
	}
	var p Processed
	for _, item := range resp.Output {
		switch item.Type {
		case "message":
			p.Items = append(p.Items, item)
		case "function_call":
			p.Items = append(p.Items, item)
			if t, ok := functions[item.Name]; ok {
				p.Functions = append(p.Functions, ToolRun{Call: item, Tool: t})
			}
		}
	}
	return p
}

func execute(ctx context.Context, p Processed) (*StepResult, error) {
	results := make([]OutputItem, len(p.Functions))
	errs := make([]error, len(p.Functions))
	var wg sync.WaitGroup
	for i, fn := range p.Functions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := fn.Tool.OnInvokeTool(ctx, fn.Call.Arguments)
			errs[i] = err
			s, _ := out.(string)
			results[i] = OutputItem{Type: "function_call_output", CallID: fn.Call.CallID, Content: s}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(p.Functions) == 0 {
		text := ""
		for _, it := range p.Items {
			if it.Type == "message" {
				text = it.Content
			}
		}
		return &StepResult{Items: p.Items, Next: Final{Output: text}}, nil
	}
	return &StepResult{Items: append(p.Items, results...), Next: Again{}}, nil
}
