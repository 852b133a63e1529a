package busagent

import (
	"context"
	"errors"
	"time"
)

// Bus carries tool calls to a worker and their results back.
type Bus interface {
	Publish(call ToolCall)
	Results() <-chan Result
}

// Result is a tool's answer.
type Result struct {
	CallID, Output string
}

type chanBus struct {
	tools   map[string]Tool
	calls   chan ToolCall
	results chan Result
}

// NewBus starts a worker running the tools.
func NewBus(ctx context.Context, tools map[string]Tool) Bus {
	b := &chanBus{tools: tools, calls: make(chan ToolCall, 16), results: make(chan Result, 16)}
	go b.work(ctx)
	return b
}

func (b *chanBus) Publish(call ToolCall) { b.calls <- call }

func (b *chanBus) Results() <-chan Result { return b.results }

func (b *chanBus) work(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case call := <-b.calls:
			out := "unknown tool"
			if t, ok := b.tools[call.Name]; ok {
				res, err := t.Invoke(ctx, call.Args)
				if err != nil {
					res = err.Error()
				}
				out = res
			}
			b.results <- Result{CallID: call.ID, Output: out}
		}
	}
}

// Worker thinks with its embedded Brain and acts over its embedded Bus.
type Worker struct {
	Brain
	Bus
	Wait time.Duration
}

// Do runs a task to its end.
func (w *Worker) Do(ctx context.Context, task string) (string, error) {
	msgs := []Message{{Role: "user", Content: task}}
	for turn := 0; turn < 20; turn++ {
		reply, err := w.Think(ctx, msgs)
		if err != nil {
			return "", err
		}
		if len(reply.ToolCalls) == 0 {
			return reply.Content, nil
		}
		for _, c := range reply.ToolCalls {
			w.Publish(c)
		}
		for range reply.ToolCalls {
			select {
			case r := <-w.Results():
				msgs = append(msgs, Message{Role: "tool", Content: r.Output, CallID: r.CallID})
			case <-ctx.Done():
				return "", ctx.Err()
			case <-time.After(w.Wait):
				return "", errors.New("tool timeout")
			}
		}
	}
	return "", errors.New("too many turns")
}
