// Package tracing holds the trace provider that mints trace ids, and the wrapper that runs a
// function under a new trace.
package tracing

import (
	"context"
	"strings"

	"github.com/google/uuid"
)

// TraceProvider creates traces and their ids.
type TraceProvider interface {
	GenTraceID() string
	CreateTrace(name, traceID string) Trace
}

// Trace is one trace.
type Trace interface {
	Start()
	Finish()
	TraceID() string
}

// DefaultTraceProvider is the default provider.
type DefaultTraceProvider struct{}

// GenTraceID mints a trace id.
func (p *DefaultTraceProvider) GenTraceID() string {
	return "trace_" + strings.ReplaceAll(uuid.NewString(), "-", "")
}

// CreateTrace creates a trace.
func (p *DefaultTraceProvider) CreateTrace(name, traceID string) Trace {
	return &traceImpl{name: name, traceID: traceID}
}

type traceImpl struct{ name, traceID string }

func (t *traceImpl) Start()          {}
func (t *traceImpl) Finish()         {}
func (t *traceImpl) TraceID() string { return t.traceID }

var provider TraceProvider = &DefaultTraceProvider{}

// GetTraceProvider returns the global provider.
func GetTraceProvider() TraceProvider { return provider }

// TraceParams names a new trace.
type TraceParams struct {
	WorkflowName string
	TraceID      string
}

// NewTrace creates a trace, minting its id when none is given.
func NewTrace(params TraceParams) Trace {
	traceID := params.TraceID
	if traceID == "" {
		traceID = GetTraceProvider().GenTraceID()
	}
	return GetTraceProvider().CreateTrace(params.WorkflowName, traceID)
}

type traceKey struct{}

// WithTrace runs fn under a new trace.
func WithTrace(ctx context.Context, params TraceParams, fn func(ctx context.Context) error) error {
	t := NewTrace(params)
	t.Start()
	defer t.Finish()
	return fn(context.WithValue(ctx, traceKey{}, t))
}

// HasTrace reports whether ctx carries a trace.
func HasTrace(ctx context.Context) bool { return ctx.Value(traceKey{}) != nil }

// FunctionSpan runs fn in a function span.
func FunctionSpan(ctx context.Context, name string, fn func(ctx context.Context) (any, error)) (any, error) {
	return fn(ctx)
}
