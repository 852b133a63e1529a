// Package trace is a stub of go.opentelemetry.io/otel/trace.
package trace

import "context"

// Span is a span.
type Span interface {
	End(options ...SpanEndOption)
}

// SpanEndOption configures End.
type SpanEndOption interface{}

// SpanStartOption configures Start.
type SpanStartOption interface{}

// Tracer starts spans.
type Tracer interface {
	Start(ctx context.Context, spanName string, opts ...SpanStartOption) (context.Context, Span)
}
