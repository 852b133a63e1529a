package a

import (
	"context"
	"errors"

	"go.opentelemetry.io/otel/trace"
)

// call is a tool call started in the background.
type call struct{ ID, Name string }

// result is a tool call's result.
type result struct {
	ID  string
	Out string
}

// toolSpans starts a span per tool call, keeps it in a map and ends it when that call's
// result arrives: storing the span in the map does not end it, and the cancellation return
// leaves every pending span open.
func toolSpans(ctx context.Context, tr trace.Tracer, calls <-chan call, results <-chan result) error {
	spans := map[string]trace.Span{}
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case c := <-calls:
			_, span := tr.Start(ctx, "tool "+c.Name) // want `span started by tr.Start is stored in spans and not ended on every path`
			spans[c.ID] = span
		case r, ok := <-results:
			if !ok {
				for _, s := range spans {
					s.End()
				}
				return nil
			}
			spans[r.ID].End()
			delete(spans, r.ID)
		}
	}
}

// toolSpansEnded ends the pending spans on the cancellation return too: nothing to report.
func toolSpansEnded(ctx context.Context, tr trace.Tracer, calls <-chan call, results <-chan result) error {
	spans := map[string]trace.Span{}
	for {
		select {
		case <-ctx.Done():
			for _, s := range spans {
				s.End()
			}
			return ctx.Err()
		case c := <-calls:
			_, span := tr.Start(ctx, "tool "+c.Name)
			spans[c.ID] = span
		case r := <-results:
			if s, ok := spans[r.ID]; ok {
				s.End()
				delete(spans, r.ID)
			}
			if len(spans) == 0 {
				return nil
			}
		}
	}
}

// RunManager is what a callback manager hands back for one run: its end and error hooks.
type RunManager struct{}

// OnChainEnd records the run's end.
func (*RunManager) OnChainEnd(ctx context.Context, out string) {}

// OnChainError records the run's failure.
func (*RunManager) OnChainError(ctx context.Context, err error) {}

// CallbackManager starts runs.
type CallbackManager struct{}

// OnChainStart records a run's start and returns its manager.
func (*CallbackManager) OnChainStart(ctx context.Context, input string) (*RunManager, error) {
	return &RunManager{}, nil
}

// chainRun starts a run through the callback manager and leaves it open when the step fails.
func chainRun(ctx context.Context, cm *CallbackManager, step func(context.Context) (string, error)) (string, error) {
	rm, err := cm.OnChainStart(ctx, "in") // want `rm started by cm.OnChainStart is not ended on every path`
	if err != nil {
		return "", err
	}
	out, err := step(ctx)
	if err != nil {
		return "", errors.Join(errors.New("step"), err)
	}
	rm.OnChainEnd(ctx, out)
	return out, nil
}

// chainRunEnded records the failure too: nothing to report.
func chainRunEnded(ctx context.Context, cm *CallbackManager, step func(context.Context) (string, error)) (string, error) {
	rm, err := cm.OnChainStart(ctx, "in")
	if err != nil {
		return "", err
	}
	out, err := step(ctx)
	if err != nil {
		rm.OnChainError(ctx, err)
		return "", err
	}
	rm.OnChainEnd(ctx, out)
	return out, nil
}
