// Package sidegoroutine holds turn loops whose functions start goroutines that have nothing to
// do with the tools — a spinner, a watcher of the context, a reader pumping the model's stream
// into a channel — while the tool calls run one after another in a range over them: those
// tools are sequential. Parallel runs each tool call in a goroutine of its own and gathers the
// results: those are parallel.
package sidegoroutine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"example.com/shapes/llm"
)

// Agent runs tools for a model.
type Agent struct {
	c     *llm.Client
	tools map[string]func(string) string
}

// Spinner shows a spinner and watches the context while the loop runs its tools in order.
func (a *Agent) Spinner(ctx context.Context, msgs []llm.Message) (string, error) {
	done := make(chan struct{})
	defer close(done)
	go func() {
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
				fmt.Print(".")
			}
		}
	}()
	go func() {
		<-ctx.Done()
		fmt.Println("cancelled")
	}()
	for i := 0; i < 10; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return "", nil
}

// Pumped reads the model's stream in a goroutine into a channel and runs the tools in order.
func (a *Agent) Pumped(ctx context.Context, msgs []llm.Message) (string, error) {
	for i := 0; i < 10; i++ {
		chunks := make(chan llm.Chunk)
		go func() {
			defer close(chunks)
			for ch := range a.c.Stream(ctx, llm.Request{Messages: msgs}) {
				chunks <- ch
			}
		}()
		var m llm.Message
		for ch := range chunks {
			m.Content += ch.Delta
			m.ToolCalls = append(m.ToolCalls, ch.ToolCalls...)
		}
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			if t, ok := a.tools[tc.Function.Name]; ok {
				msgs = append(msgs, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
			}
		}
	}
	return "", nil
}

// Parallel runs each tool call in a goroutine and gathers the results in order.
func (a *Agent) Parallel(ctx context.Context, msgs []llm.Message) (string, error) {
	for i := 0; i < 10; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		results := make([]string, len(m.ToolCalls))
		var wg sync.WaitGroup
		for j, tc := range m.ToolCalls {
			t, ok := a.tools[tc.Function.Name]
			if !ok {
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[j] = t(tc.Function.Arguments)
			}()
		}
		wg.Wait()
		for j, tc := range m.ToolCalls {
			msgs = append(msgs, llm.Message{Role: "tool", Content: results[j], ToolCallID: tc.ID})
		}
	}
	return "", nil
}

// Event is what the agent reports while it runs.
type Event struct {
	Kind, Text string
}

// runTool runs one tool call by name.
func (a *Agent) runTool(tc llm.ToolCall) llm.Message {
	out := "unknown tool"
	if t, ok := a.tools[tc.Function.Name]; ok {
		out = t(tc.Function.Arguments)
	}
	return llm.Message{Role: "tool", Content: out, ToolCallID: tc.ID}
}

// Reported sends every step's events to a printer goroutine; the tools run in order through a
// helper, and their results are reported on the same channel.
func (a *Agent) Reported(ctx context.Context, msgs []llm.Message) (string, error) {
	events := make(chan Event, 16)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ev := range events {
			fmt.Println(ev.Kind, ev.Text)
		}
	}()
	defer func() {
		close(events)
		wg.Wait()
	}()
	for i := 0; i < 10; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		events <- Event{Kind: "assistant", Text: m.Content}
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			res := a.runTool(tc)
			events <- Event{Kind: "tool", Text: res.Content}
			msgs = append(msgs, res)
		}
	}
	return "", nil
}

// Pool hands each tool call to a pool of workers and gathers their results.
func (a *Agent) Pool(ctx context.Context, msgs []llm.Message) (string, error) {
	for i := 0; i < 10; i++ {
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		jobs := make(chan llm.ToolCall)
		results := make(chan llm.Message, len(m.ToolCalls))
		var wg sync.WaitGroup
		for w := 0; w < 4; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for tc := range jobs {
					results <- a.runTool(tc)
				}
			}()
		}
		for _, tc := range m.ToolCalls {
			jobs <- tc
		}
		close(jobs)
		wg.Wait()
		close(results)
		for res := range results {
			msgs = append(msgs, res)
		}
	}
	return "", nil
}

// Model is a provider behind an interface.
type Model interface {
	Generate(ctx context.Context, msgs []llm.Message) (*llm.Message, error)
}

// Tool is a tool behind an interface.
type Tool interface {
	Name() string
	Call(ctx context.Context, args string) (string, error)
}

// Runner runs Tools for a Model.
type Runner struct {
	Model Model
	Tools map[string]Tool
}

// Run watches the context in a goroutine, streams the replies to a printer goroutine and runs
// the tools in order.
func (r *Runner) Run(ctx context.Context, msgs []llm.Message) (string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		<-ctx.Done()
		fmt.Println("stopping")
	}()
	out := make(chan string)
	go func() {
		for s := range out {
			fmt.Println(s)
		}
	}()
	defer close(out)
	for i := 0; i < 10; i++ {
		m, err := r.Model.Generate(ctx, msgs)
		if err != nil {
			return "", err
		}
		msgs = append(msgs, *m)
		out <- m.Content
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		for _, tc := range m.ToolCalls {
			t, ok := r.Tools[tc.Function.Name]
			if !ok {
				continue
			}
			res, err := t.Call(ctx, tc.Function.Arguments)
			if err != nil {
				res = "error: " + err.Error()
			}
			msgs = append(msgs, llm.Message{Role: "tool", Content: res, ToolCallID: tc.ID})
		}
	}
	return "", nil
}

// Stream runs the same loop in a goroutine and returns the replies as they come.
func (r *Runner) Stream(ctx context.Context, msgs []llm.Message) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		for i := 0; i < 10; i++ {
			m, err := r.Model.Generate(ctx, msgs)
			if err != nil {
				return
			}
			msgs = append(msgs, *m)
			out <- m.Content
			if len(m.ToolCalls) == 0 {
				return
			}
			for _, tc := range m.ToolCalls {
				if t, ok := r.Tools[tc.Function.Name]; ok {
					res, err := t.Call(ctx, tc.Function.Arguments)
					if err != nil {
						res = "error: " + err.Error()
					}
					msgs = append(msgs, llm.Message{Role: "tool", Content: res, ToolCallID: tc.ID})
				}
			}
		}
	}()
	return out
}

// PerStep starts a spinner each step and runs the step's tools one after another in a
// goroutine of their own, waiting for it: the tools are sequential.
func (a *Agent) PerStep(ctx context.Context, msgs []llm.Message) (string, error) {
	for i := 0; i < 10; i++ {
		stop := make(chan struct{})
		go func() {
			for {
				select {
				case <-stop:
					return
				case <-time.After(100 * time.Millisecond):
					fmt.Print(".")
				}
			}
		}()
		resp, err := a.c.Chat(ctx, llm.Request{Messages: msgs})
		close(stop)
		if err != nil {
			return "", err
		}
		m := resp.Choices[0].Message
		msgs = append(msgs, m)
		if len(m.ToolCalls) == 0 {
			return m.Content, nil
		}
		done := make(chan []llm.Message)
		go func() {
			var out []llm.Message
			for _, tc := range m.ToolCalls {
				if t, ok := a.tools[tc.Function.Name]; ok {
					out = append(out, llm.Message{Role: "tool", Content: t(tc.Function.Arguments), ToolCallID: tc.ID})
				}
			}
			done <- out
		}()
		msgs = append(msgs, <-done...)
	}
	return "", nil
}
