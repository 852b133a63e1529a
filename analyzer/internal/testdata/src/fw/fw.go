// Package fw is a stub agent framework for the analyzer tests: roles come from directives and
// from structural inference.
package fw

import (
	"context"
	"errors"
)

// Message carries tool calls, so a method returning it is inferred to be a model call.
type Message struct {
	Text      string
	ToolCalls []ToolCall
}

// ToolCall is one requested tool call.
type ToolCall struct{ Name, Args string }

// Model is inferred to be a model: Generate returns tool calls.
type Model interface {
	Generate(ctx context.Context, msgs []Message) (*Message, error)
}

// Tool is inferred to be a tool interface.
type Tool interface {
	Name() string
	Call(ctx context.Context, args string) (string, error)
}

// Complete is a model call by directive.
//
//lifeline:model-call
func Complete(ctx context.Context, prompt string) (string, error) { return "", nil }

// RunTool is a tool call by directive.
//
//lifeline:tool-call
func RunTool(ctx context.Context, name string) (string, error) { return "", nil }

// Ask is a helper that calls the model: its callers see a model-call site (a fact).
func Ask(ctx context.Context, m Model) (*Message, error) { return m.Generate(ctx, nil) }

// Status is inferred to be a run status type.
type Status string

// Statuses.
const (
	Running   Status = "running"
	Completed Status = "completed"
	Failed    Status = "failed"
	Cancelled Status = "cancelled"
)

// StopReason is inferred to be a stop reason type.
type StopReason string

// Stop reasons.
const (
	GoalReached StopReason = "goal_reached"
	MaxSteps    StopReason = "max_steps"
	ToolError   StopReason = "tool_error"
	Cancel      StopReason = "cancelled"
)

// Run is a run record.
type Run struct {
	ID          string
	ParentRunID string
	Attempt     int
	Status      Status
	StopReason  StopReason
}

// RunOptions configure a new run.
type RunOptions struct {
	ParentRunID string
	Attempt     int
	Input       string
}

// StartRun creates a run.
//
//lifeline:run-start
func StartRun(ctx context.Context, opts RunOptions) (*Run, error) { return &Run{}, nil }

// Span is a lifecycle span.
type Span struct{}

// End ends the span.
func (*Span) End() {}

// StartStep starts a step span that must be ended.
//
//lifeline:span-start End
func StartStep(ctx context.Context, name string) (context.Context, *Span) { return ctx, &Span{} }

// ErrMaxSteps is returned at the step bound.
var ErrMaxSteps = errors.New("max steps")
