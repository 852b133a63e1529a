// Package stateloop is an agent shaped like the chat loop of a Kubernetes assistant CLI
// (GoogleCloudPlatform/kubectl-ai@0112b4c pkg/agent/conversation.go:299-560, Agent.Run and
// DispatchToolCalls): Run starts the loop in a goroutine and returns nil at once; the loop is a
// condition-less for over a switch on the agent's state field (idle/done waits for the next
// query on an input channel, running goes on to a step); the iteration counter and the bound are
// fields, the bound checked before each step (at it the state goes to done, a message is sent and
// the loop waits for the next query); the model is an interface field, the tools are looked up by
// the call's name and run one by one by a method the loop calls.
package stateloop

import (
	"context"
	"fmt"
	"sync"
)

// State is the agent's phase.
type State string

// States of the agent.
const (
	StateIdle    State = "idle"
	StateRunning State = "running"
	StateDone    State = "done"
	StateExited  State = "exited"
)

// FunctionCall is a tool call the model asked for.
type FunctionCall struct {
	ID, Name string
	Args     map[string]any
}

// FunctionResult is a tool's result handed back to the model.
type FunctionResult struct {
	ID, Name string
	Result   any
}

// Response is one model answer.
type Response struct {
	Text  string
	Calls []FunctionCall
}

// Chat is a model conversation.
type Chat interface {
	Send(ctx context.Context, contents ...any) (*Response, error)
}

// Tool runs one tool.
type Tool interface {
	Invoke(ctx context.Context, args map[string]any) (any, error)
}

// Agent answers queries from Input on Output.
type Agent struct {
	Input         chan string
	Output        chan string
	RunOnce       bool
	MaxIterations int

	chat    Chat
	tools   map[string]Tool
	mu      sync.Mutex
	state   State
	iter    int
	content []any
	pending []FunctionCall
}

// New makes an agent.
func New(chat Chat, tools map[string]Tool) *Agent {
	return &Agent{Input: make(chan string, 1), Output: make(chan string, 10), chat: chat, tools: tools, state: StateIdle}
}

func (a *Agent) setState(s State) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.state = s
}

func (a *Agent) getState() State {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.state
}

func (a *Agent) say(msg string) { a.Output <- msg }

// Run starts the agent loop and returns at once.
func (a *Agent) Run(ctx context.Context, initialQuery string) error {
	go func() {
		if initialQuery != "" {
			a.setState(StateRunning)
			a.iter = 0
			a.content = []any{initialQuery}
		}
		for {
			switch a.getState() {
			case StateIdle, StateDone:
				if a.RunOnce {
					a.setState(StateExited)
					return
				}
				select {
				case <-ctx.Done():
					return
				case q := <-a.Input:
					a.setState(StateRunning)
					a.iter = 0
					a.content = []any{q}
				}
			case StateRunning:
			case StateExited:
				return
			}

			if a.getState() == StateRunning {
				if a.iter >= a.MaxIterations {
					a.setState(StateDone)
					a.say("Maximum number of iterations reached.")
					continue
				}
				resp, err := a.chat.Send(ctx, a.content...)
				if err != nil {
					a.setState(StateDone)
					a.say("Error: " + err.Error())
					continue
				}
				a.content = nil
				if resp.Text != "" {
					a.say(resp.Text)
				}
				if len(resp.Calls) == 0 {
					a.setState(StateDone)
					a.iter = 0
					continue
				}
				a.pending = resp.Calls
				if err := a.dispatch(ctx); err != nil {
					a.setState(StateDone)
					a.say("Error: " + err.Error())
					continue
				}
				a.iter++
				a.pending = nil
			}
		}
	}()
	return nil
}

// dispatch runs the pending tool calls one by one.
func (a *Agent) dispatch(ctx context.Context) error {
	for _, call := range a.pending {
		t, ok := a.tools[call.Name]
		if !ok {
			return fmt.Errorf("unknown tool %q", call.Name)
		}
		out, err := t.Invoke(ctx, call.Args)
		if err != nil {
			return fmt.Errorf("tool %s: %w", call.Name, err)
		}
		a.content = append(a.content, FunctionResult{ID: call.ID, Name: call.Name, Result: out})
	}
	return nil
}
