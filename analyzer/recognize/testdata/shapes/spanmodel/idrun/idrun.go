// Package idrun is a supervisor whose runs take their ids from the supervisor's own counter,
// their trace ids from math/rand, and whose sub-agent runs, started by a tool, get their
// parent's run id and trace id.
package idrun

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"

	"example.com/shapes/spanmodel/llm"
)

// Run is one run of an agent.
type Run struct {
	ID       string
	TraceID  string
	ParentID string
	Depth    int
	Items    []llm.InputItem
}

// Supervisor starts runs and numbers them.
type Supervisor struct {
	Client   llm.Client
	Model    string
	MaxSteps int
	Tools    map[string]func(ctx context.Context, args string) (string, error)

	seq    atomic.Int64
	mu     sync.Mutex
	spawns int
}

// Start runs input as a new top-level run.
func (s *Supervisor) Start(ctx context.Context, input string) (string, error) {
	run := &Run{ID: fmt.Sprintf("run-%06d", s.seq.Add(1)), TraceID: newTraceID()}
	return s.drive(ctx, run, input)
}

func newTraceID() string {
	return fmt.Sprintf("%016x%016x", rand.Uint64(), rand.Uint64())
}

// spawn starts a sub-agent run for a tool: it is numbered apart, under its parent's trace.
func (s *Supervisor) spawn(ctx context.Context, parent *Run, task string) (string, error) {
	s.mu.Lock()
	s.spawns++
	n := s.spawns
	s.mu.Unlock()
	child := &Run{ID: parent.ID + "/sub-" + strconv.Itoa(n), TraceID: parent.TraceID, Depth: parent.Depth + 1}
	child.ParentID = parent.ID
	if child.Depth > 3 {
		return "", errors.New("idrun: sub-agents nested too deep")
	}
	return s.drive(ctx, child, task)
}

func (s *Supervisor) drive(ctx context.Context, run *Run, input string) (string, error) {
	run.Items = append(run.Items, llm.InputItem{Type: "message", Role: "user", Content: input})
	params := []llm.ToolParam{{Name: "delegate", Description: "hand a task to a sub-agent"}}
	for name := range s.Tools {
		params = append(params, llm.ToolParam{Name: name})
	}
	for step := 0; step < s.MaxSteps; step++ {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		resp, err := s.Client.Responses.New(ctx, llm.ResponseNewParams{Model: s.Model, Input: run.Items, Tools: params})
		if err != nil {
			return "", fmt.Errorf("run %s: %w", run.ID, err)
		}
		var calls []llm.OutputItem
		answer := ""
		for _, item := range resp.Output {
			if item.Type == "function_call" {
				calls = append(calls, item)
				run.Items = append(run.Items, llm.InputItem{Type: "function_call", CallID: item.CallID, Name: item.Name, Arguments: item.Arguments})
			} else {
				answer = item.Text
			}
		}
		if len(calls) == 0 {
			return answer, nil
		}
		for _, call := range calls {
			var out string
			var err error
			if call.Name == "delegate" {
				out, err = s.spawn(ctx, run, call.Arguments)
			} else if fn, ok := s.Tools[call.Name]; ok {
				out, err = fn(ctx, call.Arguments)
			} else {
				err = fmt.Errorf("no tool %q", call.Name)
			}
			if err != nil {
				out = "error: " + err.Error()
			}
			run.Items = append(run.Items, llm.InputItem{Type: "function_call_output", CallID: call.CallID, Output: out})
		}
	}
	return "", fmt.Errorf("run %s: step limit reached", run.ID)
}
