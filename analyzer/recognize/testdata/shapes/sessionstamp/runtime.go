// Package sessionstamp is the runtime of a small excerpt of github.com/godeps/agentsdk-go@v1.0.0
// (pkg/api/agent.go:249-278, 480-497, 550-632, 998-1103, 1147-1296, 1312-1333, 1806-1812;
// pkg/tool/executor.go:39-82): Run names the session from the clock when the request has
// none (defaultSessionID) and prepare mints the request id with uuid; the unexported model
// adapter streams and keeps the final chunk; the tool executor consults a permission resolver
// (a func field that queues an approval) and runs the tool a registry looks up by name.
package sessionstamp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"example.com/shapes/sessionstamp/core"
	"github.com/google/uuid"
)

// Request is one prompt.
type Request struct {
	Prompt    string
	SessionID string
	RequestID string
}

// Response is what a run returns.
type Response struct{ Output string }

// Message is one history entry.
type Message struct {
	Role, Content string
	Calls         []core.ToolCall
}

// StreamResult is one streamed chunk; the last one carries the response.
type StreamResult struct {
	Final    bool
	Response *Message
}

// Provider is the model API.
type Provider interface {
	CompleteStream(ctx context.Context, msgs []Message, cb func(StreamResult) error) error
}

// Tool is a registered tool.
type Tool interface {
	Execute(ctx context.Context, params map[string]any) (string, error)
}

// Call is one tool call for the executor.
type Call struct {
	Name   string
	Params map[string]any
}

// PermissionResolver decides whether a call may run.
type PermissionResolver func(ctx context.Context, call Call) (bool, error)

// ApprovalQueue holds the calls waiting for a human.
type ApprovalQueue struct{ pending []string }

// Request queues a call for approval.
func (q *ApprovalQueue) Request(session, tool string) (bool, error) {
	q.pending = append(q.pending, session+"/"+tool)
	return false, nil
}

// Executor runs the tool a call names.
type Executor struct{ registry map[string]Tool }

// Execute looks the tool up by name and runs it.
func (e *Executor) Execute(ctx context.Context, call Call) (string, error) {
	t, ok := e.registry[call.Name]
	if !ok {
		return "", fmt.Errorf("tool %s not found", call.Name)
	}
	return t.Execute(ctx, call.Params)
}

// Runtime runs agents.
type Runtime struct {
	base      Provider
	executor  *Executor
	approvals *ApprovalQueue
	history   map[string][]Message
	maxIter   int
}

func defaultSessionID(entry string) string {
	prefix := strings.TrimSpace(entry)
	if prefix == "" {
		prefix = "cli"
	}
	return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
}

// Run executes one prompt.
func (rt *Runtime) Run(ctx context.Context, req Request) (*Response, error) {
	if rt == nil {
		return nil, errors.New("runtime closed")
	}
	sessionID := strings.TrimSpace(req.SessionID)
	if sessionID == "" {
		sessionID = defaultSessionID("cli")
	}
	req.SessionID = sessionID
	prep, err := rt.prepare(req)
	if err != nil {
		return nil, err
	}
	out, err := rt.runAgent(ctx, prep)
	if err != nil {
		return nil, err
	}
	return &Response{Output: out.Content}, nil
}

func (rt *Runtime) prepare(req Request) (Request, error) {
	if strings.TrimSpace(req.Prompt) == "" {
		return Request{}, errors.New("api: prompt is empty")
	}
	if req.RequestID == "" {
		req.RequestID = uuid.New().String()
	}
	rt.history[req.SessionID] = append(rt.history[req.SessionID], Message{Role: "user", Content: req.Prompt})
	return req, nil
}

func (rt *Runtime) runAgent(ctx context.Context, req Request) (*core.ModelOutput, error) {
	m := &conversationModel{base: rt.base, rt: rt, session: req.SessionID}
	x := &toolExecutor{executor: rt.executor, session: req.SessionID, resolve: buildResolver(rt.approvals, req.SessionID)}
	ag, err := core.New(m, x, core.Options{MaxIterations: rt.maxIter})
	if err != nil {
		return nil, err
	}
	return ag.Run(ctx, &core.Context{})
}

type conversationModel struct {
	base    Provider
	rt      *Runtime
	session string
}

func (m *conversationModel) Generate(ctx context.Context, _ *core.Context) (*core.ModelOutput, error) {
	var resp *Message
	if err := m.base.CompleteStream(ctx, m.rt.history[m.session], func(sr StreamResult) error {
		if sr.Final && sr.Response != nil {
			resp = sr.Response
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if resp == nil {
		return nil, errors.New("model returned no final response")
	}
	m.rt.history[m.session] = append(m.rt.history[m.session], *resp)
	return &core.ModelOutput{Content: resp.Content, ToolCalls: resp.Calls, Done: len(resp.Calls) == 0}, nil
}

func buildResolver(q *ApprovalQueue, session string) PermissionResolver {
	return func(ctx context.Context, call Call) (bool, error) {
		if q == nil {
			return true, nil
		}
		return q.Request(session, call.Name)
	}
}

type toolExecutor struct {
	executor *Executor
	session  string
	resolve  PermissionResolver
}

func (t *toolExecutor) Execute(ctx context.Context, call core.ToolCall, _ *core.Context) (core.ToolResult, error) {
	if t.resolve != nil {
		ok, err := t.resolve(ctx, Call{Name: call.Name, Params: call.Input})
		if err != nil || !ok {
			return core.ToolResult{Name: call.Name, Output: "denied"}, err
		}
	}
	out, err := t.executor.Execute(ctx, Call{Name: call.Name, Params: call.Input})
	return core.ToolResult{Name: call.Name, Output: out}, err
}
