// Package variant is the same runner architecture written another way: the loop closure kept
// in a variable and handed to the runner's own tracing method, the wrapper's error checked
// before the result is returned, the tools run through an errgroup-like launcher whose
// results come back over a channel, and the streamed run started by a go func literal.
package variant

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sync"

	"example.com/shapes/agentsgo/agents"
	"example.com/shapes/agentsgo/openai"
	"example.com/shapes/agentsgo/tracing"
)

// DefaultMaxTurns bounds a run whose options say nothing.
const DefaultMaxTurns = 8

// Options configure the runner.
type Options struct {
	MaxTurns int
	Provider agents.ModelProvider
}

// Runner runs agents.
type Runner struct{ opts Options }

// New returns a runner.
func New(opts Options) *Runner { return &Runner{opts: opts} }

// MaxTurnsExceeded is returned past the last turn.
type MaxTurnsExceeded struct{ Turns int }

func (e *MaxTurnsExceeded) Error() string { return fmt.Sprintf("max turns %d exceeded", e.Turns) }

// Result is a run's result.
type Result struct{ Output string }

// genTraceID mints a trace id from random bytes.
func genTraceID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return "trace_" + hex.EncodeToString(b[:])
}

func (r *Runner) traced(ctx context.Context, name string, fn func(context.Context) error) error {
	return tracing.WithTrace(ctx, tracing.TraceParams{WorkflowName: name, TraceID: genTraceID()}, fn)
}

// Run runs an agent.
func (r *Runner) Run(ctx context.Context, agent *agents.Agent, input string) (*Result, error) {
	var result *Result
	loop := func(ctx context.Context) error {
		items := []openai.ResponseInputItem{{Type: "message", Role: "user", Content: input}}
		limit := r.opts.MaxTurns
		if limit <= 0 {
			limit = DefaultMaxTurns
		}
		for turn := 1; ; turn++ {
			if turn > limit {
				return &MaxTurnsExceeded{Turns: limit}
			}
			if err := ctx.Err(); err != nil {
				return err
			}
			resp, err := r.step(ctx, agent, items)
			if err != nil {
				return err
			}
			var calls []openai.ResponseFunctionToolCall
			for _, item := range resp.Output {
				switch item.Type {
				case "message":
					result = &Result{Output: item.Content}
				case "function_call":
					calls = append(calls, openai.ResponseFunctionToolCall{Name: item.Name, Arguments: item.Arguments, CallID: item.CallID})
				}
			}
			if len(calls) == 0 {
				return nil
			}
			outs, err := r.runTools(ctx, agent, calls)
			if err != nil {
				return err
			}
			items = append(items, outs...)
		}
	}
	if err := r.traced(ctx, "variant", loop); err != nil {
		return nil, err
	}
	return result, nil
}

func (r *Runner) step(ctx context.Context, agent *agents.Agent, items []openai.ResponseInputItem) (*agents.ModelResponse, error) {
	model, err := r.opts.Provider.GetModel(agent.Model)
	if err != nil {
		return nil, err
	}
	return model.GetResponse(ctx, agents.ModelParams{Input: items, Tools: agent.Tools})
}

type toolResult struct {
	item openai.ResponseInputItem
	err  error
}

func (r *Runner) runTools(ctx context.Context, agent *agents.Agent, calls []openai.ResponseFunctionToolCall) ([]openai.ResponseInputItem, error) {
	byName := map[string]agents.FunctionTool{}
	for _, t := range agent.Tools {
		if ft, ok := t.(agents.FunctionTool); ok {
			byName[ft.Name] = ft
		}
	}
	ch := make(chan toolResult, len(calls))
	var wg sync.WaitGroup
	for _, call := range calls {
		tool, ok := byName[call.Name]
		if !ok {
			return nil, errors.New("unknown tool " + call.Name)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := tool.OnInvokeTool(ctx, call.Arguments)
			ch <- toolResult{item: openai.ResponseInputItem{Type: "function_call_output", CallID: call.CallID, Output: fmt.Sprint(out)}, err: err}
		}()
	}
	wg.Wait()
	close(ch)
	var outs []openai.ResponseInputItem
	for res := range ch {
		if res.err != nil {
			return nil, res.err
		}
		outs = append(outs, res.item)
	}
	return outs, nil
}

// Stream is the handle of a streamed run.
type Stream struct {
	Done chan struct{}
	Res  *Result
	Err  error
}

// RunStreamed starts the run in a goroutine and returns its handle.
func (r *Runner) RunStreamed(ctx context.Context, agent *agents.Agent, input string) (*Stream, error) {
	if agent == nil {
		return nil, errors.New("no agent")
	}
	s := &Stream{Done: make(chan struct{})}
	go func() {
		defer close(s.Done)
		s.Res, s.Err = r.Run(ctx, agent, input)
	}()
	return s, nil
}
