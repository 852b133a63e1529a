// Package span records spans around the work of a run: each span has an id drawn from a
// counter, its trace's id and its parent's.
package span

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"
)

// Span is one recorded interval.
type Span struct {
	SpanID   string
	TraceID  string
	ParentID string
	Name     string
	Start    time.Time
	End      time.Time
	Err      error
}

var (
	counter  atomic.Int64
	Exporter func(*Span)
)

type spanKey struct{}

// Current returns the span ctx carries, or nil.
func Current(ctx context.Context) *Span {
	s, _ := ctx.Value(spanKey{}).(*Span)
	return s
}

// WithSpan runs fn in a new span, a child of the span ctx carries.
func WithSpan(ctx context.Context, name string, fn func(ctx context.Context) error) error {
	s := &Span{SpanID: fmt.Sprintf("span_%06d", counter.Add(1)), Name: name, Start: time.Now()}
	if parent := Current(ctx); parent != nil {
		s.TraceID = parent.TraceID
		s.ParentID = parent.SpanID
	}
	err := fn(context.WithValue(ctx, spanKey{}, s))
	s.End, s.Err = time.Now(), err
	if Exporter != nil {
		Exporter(s)
	}
	return err
}
